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
import java.util.Iterator;
import java.util.Set;

/**
 * Strict, exact reading of the fields of a scenario file, shared by the scenario parsers. Strict
 * because a typo in a ground-truth scenario silently changes the truth (unknown fields and
 * duplicate keys are errors); exact because microseconds with 3 decimals must become exact
 * nanoseconds (numbers are read as decimals). Every error is one line naming the file and the field.
 */
final class ScenarioFields {
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private final String source;

    /** @param source the file (or label) errors name */
    ScenarioFields(String source) {
        this.source = source;
    }

    /** The text of a scenario file; a missing or unreadable file is one line. */
    static String readFile(Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException("scenario " + file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException("scenario " + file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** The JSON object of a scenario; not JSON, or not an object, is one line saying where. */
    JsonNode object(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            throw fail("not valid JSON" + where + ": " + JsonWording.describe(e), e);
        }
        if (root == null || !root.isObject()) {
            throw fail("must be a JSON object");
        }
        return root;
    }

    void checkFields(JsonNode obj, Set<String> known, String prefix) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw fail(prefix + f + ": unknown field (known: " + String.join(", ", known.stream().sorted().toList())
                        + ")");
            }
        }
    }

    String optionalText(JsonNode obj, String field, String dflt) {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isTextual()) {
            throw fail(field + ": must be a string, got " + n);
        }
        return n.textValue();
    }

    BigDecimal number(JsonNode obj, String field, String prefix) {
        JsonNode n = obj.get(field);
        if (n == null || !n.isNumber()) {
            throw fail(prefix + field + ": must be a number, got " + n);
        }
        return n.decimalValue();
    }

    /** A duration in µs (up to 3 decimals) as exact ns, or {@code dfltNs} when absent. */
    long usField(JsonNode obj, String field, long dfltNs, String prefix) {
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

    long longField(JsonNode obj, String field, long dflt, String prefix) {
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

    int intField(JsonNode obj, String field, int dflt, String prefix) {
        long v = longField(obj, field, dflt, prefix);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw fail(prefix + field + ": out of range: " + v);
        }
        return (int) v;
    }

    double doubleField(JsonNode obj, String field, double dflt, String prefix) {
        if (!obj.has(field) || obj.get(field).isNull()) {
            return dflt;
        }
        return number(obj, field, prefix).doubleValue();
    }

    boolean booleanField(JsonNode obj, String field, boolean dflt) {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isBoolean()) {
            throw fail(field + ": must be true or false, got " + n);
        }
        return n.booleanValue();
    }

    ScenarioException fail(String what) {
        return new ScenarioException("scenario " + source + ": " + what);
    }

    ScenarioException fail(String what, Throwable cause) {
        return new ScenarioException("scenario " + source + ": " + what, cause);
    }

}
