package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Model scenario JSON ({@code layers}, {@code bucketCapMB}, {@code alphaUs}, {@code betaGBps})
 * → {@link ModelScenario}. As strict as {@link ScenarioParser}: unknown fields and duplicate keys
 * are errors, microseconds are exact decimals.
 */
final class ModelScenarioParser {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private static final Set<String> TOP = Set.of("name", "description", "rank", "worldSize", "steps",
            "firstStep", "forwardUs", "layers", "bucketCapMB", "bucketCapBytes", "alphaUs", "betaGBps",
            "optimizerUs", "stepGapUs", "jitterPct", "seed");
    private static final Set<String> LAYER = Set.of("us", "kernels", "gradBytes");
    private static final Set<String> GROUP = Set.of("repeat", "layers");
    /** Guards against a typo like {"repeat": 1e9} expanding into an endless model. */
    private static final int MAX_LAYERS = 1_000_000;

    private final String source;

    private ModelScenarioParser(String source) {
        this.source = source;
    }

    static ModelScenario parse(Path file) {
        return parse(read(file), file.toString());
    }

    static ModelScenario parse(String json, String source) {
        ModelScenarioParser p = new ModelScenarioParser(source);
        return p.fromTree(p.tree(json));
    }

    /** Called by {@link ScenarioParser} for a parsed root that has {@code layers}. */
    static Scenario expand(JsonNode root, String source) {
        return new ModelScenarioParser(source).fromTree(root).toScenario();
    }

    static boolean isModel(Path file) {
        String text = read(file);
        JsonNode root = new ModelScenarioParser(file.toString()).tree(text);
        return root.isObject() && root.has("layers");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException("scenario " + file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException("scenario " + file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private JsonNode tree(String json) {
        try {
            JsonNode root = MAPPER.readTree(json);
            if (root == null || !root.isObject()) {
                throw fail("must be a JSON object");
            }
            return root;
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            String msg = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().replaceAll("\\s*\\R\\s*", " ");
            throw fail("not valid JSON" + where + ": " + msg.trim());
        }
    }

    private ModelScenario fromTree(JsonNode root) {
        checkFields(root, TOP, "");
        if (root.has("backward") || root.has("forward")) {
            throw fail("a model scenario has 'layers' (and 'forwardUs'), not 'forward'/'backward' blocks");
        }
        JsonNode name = root.get("name");
        if (name == null || !name.isTextual() || name.textValue().isBlank()) {
            throw fail("name: missing (a short name for the scenario)");
        }
        if (root.has("bucketCapMB") == root.has("bucketCapBytes")) {
            throw fail("give exactly one of bucketCapMB (MiB, as DDP's bucket_cap_mb) or bucketCapBytes");
        }
        for (String required : List.of("alphaUs", "betaGBps")) {
            if (!root.has(required)) {
                throw fail(required + ": missing (the interconnect: comm time = alphaUs + bytes / betaGBps)");
            }
        }
        List<ModelScenario.Layer> layers = new ArrayList<>();
        layers(root.get("layers"), "layers", 1, layers);
        long cap = root.has("bucketCapBytes") ? longField(root, "bucketCapBytes", 0, "")
                : capFromMiB(number(root, "bucketCapMB", ""));
        try {
            JsonNode desc = root.get("description");
            return new ModelScenario(name.textValue(), desc == null || desc.isNull() ? "" : text(desc, "description"),
                    (int) longField(root, "rank", 0, ""), (int) longField(root, "worldSize", 2, ""),
                    (int) longField(root, "steps", 1, ""), (int) longField(root, "firstStep", 1, ""),
                    usField(root, "forwardUs", 0, ""), layers, cap, usField(root, "alphaUs", 0, ""),
                    number(root, "betaGBps", "").doubleValue(), usField(root, "optimizerUs", 0, ""),
                    usField(root, "stepGapUs", Durations.ms(1), ""),
                    root.has("jitterPct") ? number(root, "jitterPct", "").doubleValue() : 0,
                    longField(root, "seed", 1, ""));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail(e.getMessage());
        }
    }

    private void layers(JsonNode node, String path, int times, List<ModelScenario.Layer> out) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw fail(path + ": must be a non-empty array of layers like {\"us\": 400, \"gradBytes\": 4194304}");
        }
        List<ModelScenario.Layer> once = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode n = node.get(i);
            if (!n.isObject()) {
                throw fail(p + ": must be an object");
            }
            if (n.has("repeat") || n.has("layers")) {
                checkFields(n, GROUP, p + ".");
                long repeat = longField(n, "repeat", 1, p + ".");
                if (repeat < 1 || repeat > MAX_LAYERS) {
                    throw fail(p + ".repeat: must be in [1, " + MAX_LAYERS + "], got " + repeat);
                }
                layers(n.get("layers"), p + ".layers", (int) repeat, once);
                continue;
            }
            checkFields(n, LAYER, p + ".");
            if (!n.has("us")) {
                throw fail(p + ".us: missing (the layer's backward compute time in µs)");
            }
            if (!n.has("gradBytes")) {
                throw fail(p + ".gradBytes: missing (the layer's gradient bytes; 0 for none)");
            }
            try {
                once.add(new ModelScenario.Layer(usField(n, "us", 0, p + "."), (int) longField(n, "kernels", 1, p + "."),
                        longField(n, "gradBytes", 0, p + ".")));
            } catch (ScenarioException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw fail(p + ": " + e.getMessage());
            }
        }
        if ((long) out.size() + (long) once.size() * times > MAX_LAYERS) {
            throw fail(path + ": more than " + MAX_LAYERS + " layers after repeats");
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
            throw fail("bucketCapMB: out of range: " + mib.toPlainString());
        }
    }

    private void checkFields(JsonNode obj, Set<String> known, String prefix) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw fail(prefix + f + ": unknown field (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }

    private String text(JsonNode n, String field) {
        if (!n.isTextual()) {
            throw fail(field + ": must be a string, got " + n);
        }
        return n.textValue();
    }

    private BigDecimal number(JsonNode obj, String field, String prefix) {
        JsonNode n = obj.get(field);
        if (n == null || !n.isNumber()) {
            throw fail(prefix + field + ": must be a number, got " + n);
        }
        return n.decimalValue();
    }

    private long usField(JsonNode obj, String field, long dfltNs, String prefix) {
        if (!obj.has(field) || obj.get(field).isNull()) {
            return dfltNs;
        }
        try {
            return Durations.usToNs(number(obj, field, prefix));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail(prefix + field + ": " + e.getMessage());
        }
    }

    private long longField(JsonNode obj, String field, long dflt, String prefix) {
        if (!obj.has(field) || obj.get(field).isNull()) {
            return dflt;
        }
        BigDecimal v = number(obj, field, prefix);
        try {
            long l = v.longValueExact();
            if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
                if (!field.equals("gradBytes") && !field.equals("bucketCapBytes") && !field.equals("seed")) {
                    throw fail(prefix + field + ": out of range: " + l);
                }
            }
            return l;
        } catch (ArithmeticException e) {
            throw fail(prefix + field + ": must be a whole number, got " + v.toPlainString());
        }
    }

    private ScenarioException fail(String what) {
        return new ScenarioException("scenario " + source + ": " + what);
    }
}
