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
 * Scenario JSON → {@link Scenario}. Strict on purpose (unknown fields and duplicate keys are
 * errors) because a typo in a ground-truth scenario silently changes the truth. Numbers are
 * read as exact decimals so microseconds with 3 decimals become exact nanoseconds.
 */
final class ScenarioParser {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private static final Set<String> TOP = Set.of("name", "description", "rank", "worldSize", "steps",
            "firstStep", "forward", "backward", "optimizerUs", "stepGapUs", "jitterPct", "seed", "syncEvents");
    private static final Set<String> BLOCK = Set.of("name", "kernel", "us", "kernels", "bucket");
    private static final Set<String> BUCKET = Set.of("bytes", "commUs", "launchDelayUs");

    private final String source;

    private ScenarioParser(String source) {
        this.source = source;
    }

    static Scenario parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException("scenario " + file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException("scenario " + file + ": cannot read: " + e.getMessage(), e);
        }
        return parse(text, file.toString());
    }

    static Scenario parse(String json, String source) {
        return new ScenarioParser(source).read(json);
    }

    private Scenario read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            throw fail("not valid JSON" + where + ": " + oneLine(e.getOriginalMessage()), e);
        }
        if (root == null || !root.isObject()) {
            throw fail("must be a JSON object");
        }
        if (root.has("layers")) {
            // A model scenario (layers + interconnect + bucket cap) expands to plain blocks.
            return ModelScenarioParser.expand(root, source);
        }
        checkFields(root, TOP, "");
        try {
            List<Scenario.Block> forward = blocks(root.get("forward"), "forward", false);
            List<Scenario.Block> backward = blocks(root.get("backward"), "backward", true);
            return new Scenario(
                    requiredText(root, "name"),
                    optionalText(root, "description", ""),
                    intField(root, "rank", 0, ""),
                    intField(root, "worldSize", 2, ""),
                    intField(root, "steps", 1, ""),
                    intField(root, "firstStep", 1, ""),
                    forward, backward,
                    usField(root, "optimizerUs", 0, ""),
                    usField(root, "stepGapUs", Durations.ms(1), ""),
                    doubleField(root, "jitterPct", 0, ""),
                    longField(root, "seed", 1, ""),
                    booleanField(root, "syncEvents", false));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // Cross-field rules checked by the Scenario constructor (rank < worldSize, ...).
            throw fail(e.getMessage());
        }
    }

    private List<Scenario.Block> blocks(JsonNode node, String path, boolean backward) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw fail(path + ": must be an array of blocks");
        }
        List<Scenario.Block> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode b = node.get(i);
            if (!b.isObject()) {
                throw fail(p + ": must be an object like {\"us\": 2000}");
            }
            checkFields(b, BLOCK, p + ".");
            if (!b.has("us")) {
                throw fail(p + ".us: missing (the block's device time in µs)");
            }
            Scenario.Bucket bucket = null;
            JsonNode bn = b.get("bucket");
            if (bn != null && !bn.isNull()) {
                if (!backward) {
                    throw fail(p + ".bucket: only backward blocks have gradient buckets");
                }
                bucket = bucket(bn, p + ".bucket");
            }
            try {
                out.add(new Scenario.Block(optionalText(b, "name", null), optionalText(b, "kernel", null),
                        usField(b, "us", 0, p + "."), intField(b, "kernels", 1, p + "."), bucket));
            } catch (ScenarioException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                throw fail(p + ": " + e.getMessage());
            }
        }
        return out;
    }

    private Scenario.Bucket bucket(JsonNode n, String p) {
        if (!n.isObject()) {
            throw fail(p + ": must be an object like {\"bytes\": 26214400, \"commUs\": 1000}");
        }
        checkFields(n, BUCKET, p + ".");
        for (String required : List.of("bytes", "commUs")) {
            if (!n.has(required)) {
                throw fail(p + "." + required + ": missing");
            }
        }
        try {
            return new Scenario.Bucket(longField(n, "bytes", 0, p + "."), usField(n, "commUs", 0, p + "."),
                    usField(n, "launchDelayUs", 0, p + "."));
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail(p + ": " + e.getMessage());
        }
    }

    private void checkFields(JsonNode obj, Set<String> known, String prefix) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw fail(prefix + f + ": unknown field (known: " + String.join(", ", known.stream().sorted().toList())
                        + ")");
            }
        }
    }

    private String requiredText(JsonNode obj, String field) {
        String s = optionalText(obj, field, null);
        if (s == null || s.isBlank()) {
            throw fail(field + ": missing (a short name for the scenario)");
        }
        return s;
    }

    private String optionalText(JsonNode obj, String field, String dflt) {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isTextual()) {
            throw fail(field + ": must be a string, got " + n);
        }
        return n.textValue();
    }

    private BigDecimal number(JsonNode obj, String field, String prefix) {
        JsonNode n = obj.get(field);
        if (!n.isNumber()) {
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
            return v.longValueExact();
        } catch (ArithmeticException e) {
            throw fail(prefix + field + ": must be a whole number, got " + v.toPlainString());
        }
    }

    private int intField(JsonNode obj, String field, int dflt, String prefix) {
        long v = longField(obj, field, dflt, prefix);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw fail(prefix + field + ": out of range: " + v);
        }
        return (int) v;
    }

    private double doubleField(JsonNode obj, String field, double dflt, String prefix) {
        if (!obj.has(field) || obj.get(field).isNull()) {
            return dflt;
        }
        return number(obj, field, prefix).doubleValue();
    }

    private boolean booleanField(JsonNode obj, String field, boolean dflt) {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isBoolean()) {
            throw fail(field + ": must be true or false, got " + n);
        }
        return n.booleanValue();
    }

    private ScenarioException fail(String what) {
        return new ScenarioException("scenario " + source + ": " + what);
    }

    private ScenarioException fail(String what, Throwable cause) {
        return new ScenarioException("scenario " + source + ": " + what, cause);
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        // Jackson appends "(start marker at [Source: REDACTED ...])": noise for the user.
        int noise = s.indexOf(" (start marker at");
        return (noise >= 0 ? s.substring(0, noise) : s).replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
