package io.overlapanalyze.synth;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Model scenario JSON ({@code layers}, {@code bucketCapMB}, {@code alphaUs}, {@code betaGBps})
 * → {@link ModelScenario}. As strict as {@link ScenarioParser}: unknown fields and duplicate keys
 * are errors, microseconds are exact decimals.
 */
final class ModelScenarioParser {
    private static final Set<String> TOP = Set.of("name", "description", "rank", "worldSize", "steps",
            "firstStep", "forwardUs", "layers", "bucketCapMB", "bucketCapBytes", "alphaUs", "betaGBps",
            "optimizerUs", "stepGapUs", "jitterPct", "seed");
    private static final Set<String> LAYER = Set.of("us", "kernels", "gradBytes");
    private static final Set<String> GROUP = Set.of("repeat", "layers");
    /** Guards against a typo like {"repeat": 1e9} expanding into an endless model. */
    private static final int MAX_LAYERS = 1_000_000;

    private final ScenarioFields fields;

    private ModelScenarioParser(String source) {
        this.fields = new ScenarioFields(source);
    }

    static ModelScenario parse(Path file) {
        return parse(ScenarioFields.readFile(file), file.toString());
    }

    static ModelScenario parse(String json, String source) {
        ModelScenarioParser p = new ModelScenarioParser(source);
        return p.fromTree(p.fields.object(json));
    }

    /** Called by {@link ScenarioParser} for a parsed root that has {@code layers}. */
    static Scenario expand(JsonNode root, String source) {
        return new ModelScenarioParser(source).fromTree(root).toScenario();
    }

    static boolean isModel(Path file) {
        String text = ScenarioFields.readFile(file);
        JsonNode root = new ModelScenarioParser(file.toString()).fields.object(text);
        return root.isObject() && root.has("layers");
    }



    private ModelScenario fromTree(JsonNode root) {
        fields.checkFields(root, TOP, "");
        if (root.has("backward") || root.has("forward")) {
            throw fields.fail("a model scenario has 'layers' (and 'forwardUs'), not 'forward'/'backward' blocks");
        }
        JsonNode name = root.get("name");
        if (name == null || !name.isTextual() || name.textValue().isBlank()) {
            throw fields.fail("name: missing (a short name for the scenario)");
        }
        if (root.has("bucketCapMB") == root.has("bucketCapBytes")) {
            throw fields.fail("give exactly one of bucketCapMB (MiB, as DDP's bucket_cap_mb) or bucketCapBytes");
        }
        for (String required : List.of("alphaUs", "betaGBps")) {
            if (!root.has(required)) {
                throw fields.fail(required + ": missing (the interconnect: comm time = alphaUs + bytes / betaGBps)");
            }
        }
        List<ModelScenario.Layer> layers = new ArrayList<>();
        layers(root.get("layers"), "layers", 1, layers);
        long cap = root.has("bucketCapBytes") ? longField(root, "bucketCapBytes", 0, "")
                : capFromMiB(fields.number(root, "bucketCapMB", ""));
        try {
            JsonNode desc = root.get("description");
            return new ModelScenario(name.textValue(), desc == null || desc.isNull() ? "" : text(desc, "description"),
                    (int) longField(root, "rank", 0, ""), (int) longField(root, "worldSize", 2, ""),
                    (int) longField(root, "steps", 1, ""), (int) longField(root, "firstStep", 1, ""),
                    fields.usField(root, "forwardUs", 0, ""), layers, cap, fields.usField(root, "alphaUs", 0, ""),
                    fields.number(root, "betaGBps", "").doubleValue(), fields.usField(root, "optimizerUs", 0, ""),
                    fields.usField(root, "stepGapUs", Durations.ms(1), ""),
                    root.has("jitterPct") ? fields.number(root, "jitterPct", "").doubleValue() : 0,
                    longField(root, "seed", 1, ""));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fields.fail(e.getMessage());
        }
    }

    private void layers(JsonNode node, String path, int times, List<ModelScenario.Layer> out) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw fields.fail(path + ": must be a non-empty array of layers like {\"us\": 400, \"gradBytes\": 4194304}");
        }
        List<ModelScenario.Layer> once = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode n = node.get(i);
            if (!n.isObject()) {
                throw fields.fail(p + ": must be an object");
            }
            if (n.has("repeat") || n.has("layers")) {
                fields.checkFields(n, GROUP, p + ".");
                long repeat = longField(n, "repeat", 1, p + ".");
                if (repeat < 1 || repeat > MAX_LAYERS) {
                    throw fields.fail(p + ".repeat: must be in [1, " + MAX_LAYERS + "], got " + repeat);
                }
                layers(n.get("layers"), p + ".layers", (int) repeat, once);
                continue;
            }
            fields.checkFields(n, LAYER, p + ".");
            if (!n.has("us")) {
                throw fields.fail(p + ".us: missing (the layer's backward compute time in µs)");
            }
            if (!n.has("gradBytes")) {
                throw fields.fail(p + ".gradBytes: missing (the layer's gradient bytes; 0 for none)");
            }
            try {
                once.add(new ModelScenario.Layer(fields.usField(n, "us", 0, p + "."), (int) longField(n, "kernels", 1, p + "."),
                        longField(n, "gradBytes", 0, p + ".")));
            } catch (ScenarioException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw fields.fail(p + ": " + e.getMessage());
            }
        }
        if ((long) out.size() + (long) once.size() * times > MAX_LAYERS) {
            throw fields.fail(path + ": more than " + MAX_LAYERS + " layers after repeats");
        }
        for (int t = 0; t < times; t++) {
            out.addAll(once);
        }
    }

    private long capFromMiB(BigDecimal mib) {
        BigDecimal bytes = mib.multiply(BigDecimal.valueOf(ModelScenario.MIB));
        try {
            return bytes.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw fields.fail("bucketCapMB: out of range: " + mib.toPlainString());
        }
    }


    private String text(JsonNode n, String field) {
        if (!n.isTextual()) {
            throw fields.fail(field + ": must be a string, got " + n);
        }
        return n.textValue();
    }



    /** Whole numbers; only byte counts and the seed may exceed the int range. */
    private long longField(JsonNode obj, String field, long dflt, String prefix) {
        long l = fields.longField(obj, field, dflt, prefix);
        boolean mayBeLarge = field.equals("gradBytes") || field.equals("bucketCapBytes") || field.equals("seed");
        if (!mayBeLarge && (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
            throw fields.fail(prefix + field + ": out of range: " + l);
        }
        return l;
    }

}
