package io.overlapanalyze.synth;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Scenario JSON → {@link Scenario}. Strict on purpose (unknown fields and duplicate keys are
 * errors) because a typo in a ground-truth scenario silently changes the truth. Numbers are
 * read as exact decimals so microseconds with 3 decimals become exact nanoseconds.
 */
final class ScenarioParser {
    private static final Set<String> TOP = Set.of("name", "description", "rank", "worldSize", "steps",
            "firstStep", "forward", "backward", "optimizerUs", "stepGapUs", "jitterPct", "seed", "syncEvents",
            "dataLoaderUs");
    private static final Set<String> BLOCK = Set.of("name", "kernel", "us", "kernels", "bucket", "deviceWaitUs");
    private static final Set<String> BUCKET = Set.of("bytes", "commUs", "launchDelayUs");

    private final String source;
    private final ScenarioFields fields;

    private ScenarioParser(String source) {
        this.source = source;
        this.fields = new ScenarioFields(source);
    }

    static Scenario parse(Path file) {
        return parse(ScenarioFields.readFile(file), file.toString());
    }

    static Scenario parse(String json, String source) {
        return new ScenarioParser(source).read(json);
    }

    private Scenario read(String json) {
        JsonNode root = fields.object(json);
        if (root.has("layers")) {
            // A model scenario (layers + interconnect + bucket cap) expands to plain blocks.
            return ModelScenarioParser.expand(root, source);
        }
        fields.checkFields(root, TOP, "");
        try {
            List<Scenario.Block> forward = blocks(root.get("forward"), "forward", false);
            List<Scenario.Block> backward = blocks(root.get("backward"), "backward", true);
            return new Scenario(
                    requiredText(root, "name"),
                    fields.optionalText(root, "description", ""),
                    fields.intField(root, "rank", 0, ""),
                    fields.intField(root, "worldSize", 2, ""),
                    fields.intField(root, "steps", 1, ""),
                    fields.intField(root, "firstStep", 1, ""),
                    forward, backward,
                    fields.usField(root, "optimizerUs", 0, ""),
                    fields.usField(root, "stepGapUs", Durations.ms(1), ""),
                    fields.doubleField(root, "jitterPct", 0, ""),
                    fields.longField(root, "seed", 1, ""),
                    fields.booleanField(root, "syncEvents", false),
                    fields.usField(root, "dataLoaderUs", Scenario.DEFAULT_DATA_LOADER_NS, ""));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // Cross-field rules checked by the Scenario constructor (rank < worldSize, ...).
            throw fields.fail(e.getMessage());
        }
    }

    private List<Scenario.Block> blocks(JsonNode node, String path, boolean backward) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw fields.fail(path + ": must be an array of blocks");
        }
        List<Scenario.Block> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode b = node.get(i);
            if (!b.isObject()) {
                throw fields.fail(p + ": must be an object like {\"us\": 2000}");
            }
            fields.checkFields(b, BLOCK, p + ".");
            if (!b.has("us")) {
                throw fields.fail(p + ".us: missing (the block's device time in µs)");
            }
            Scenario.Bucket bucket = null;
            JsonNode bn = b.get("bucket");
            if (bn != null && !bn.isNull()) {
                if (!backward) {
                    throw fields.fail(p + ".bucket: only backward blocks have gradient buckets");
                }
                bucket = bucket(bn, p + ".bucket");
            }
            try {
                out.add(new Scenario.Block(fields.optionalText(b, "name", null), fields.optionalText(b, "kernel", null),
                        fields.usField(b, "us", 0, p + "."), fields.intField(b, "kernels", 1, p + "."), bucket,
                        fields.usField(b, "deviceWaitUs", 0, p + ".")));
            } catch (ScenarioException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw fields.fail(p + ": " + e.getMessage());
            }
        }
        return out;
    }

    private Scenario.Bucket bucket(JsonNode n, String p) {
        if (!n.isObject()) {
            throw fields.fail(p + ": must be an object like {\"bytes\": 26214400, \"commUs\": 1000}");
        }
        fields.checkFields(n, BUCKET, p + ".");
        for (String required : List.of("bytes", "commUs")) {
            if (!n.has(required)) {
                throw fields.fail(p + "." + required + ": missing");
            }
        }
        try {
            return new Scenario.Bucket(fields.longField(n, "bytes", 0, p + "."), fields.usField(n, "commUs", 0, p + "."),
                    fields.usField(n, "launchDelayUs", 0, p + "."));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fields.fail(p + ": " + e.getMessage());
        }
    }


    private String requiredText(JsonNode obj, String field) {
        String s = fields.optionalText(obj, field, null);
        if (s == null || s.isBlank()) {
            throw fields.fail(field + ": missing (a short name for the scenario)");
        }
        return s;
    }










}
