package io.overlapanalyze.reportfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a summary's JSON against the report records before it is bound, so that damage is bad
 * input and never a number: Jackson would read a missing {@code stepTimeNs} as 0 (and a gate would
 * call that a regression), coerce {@code "12"} or {@code 1.5} into a count, and report other
 * problems with Java class names.
 *
 * <p>The rule, from the record types: a field of a primitive type ({@code long}, {@code int},
 * {@code boolean}, {@code double}) is required and must be a JSON value of that kind; any other
 * field may be missing or {@code null} (written by an older tool: read as empty), but when present
 * must have the right kind (integer within range, number, string, boolean, one of the enum's names,
 * array, object). A missing or {@code null} list is filled in as empty, as the records would. A
 * few reference fields the comparison depends on are required too ({@link #PRESENT}).
 */
final class SummaryShape {
    /**
     * Fields of a reference type every summary has had since schema version 1 was published and
     * the comparison depends on: a step without a name, or without the device window that decides
     * whether it counts (written as {@code null} when the step had no device work, never left
     * out), and a rank without its step list.
     */
    private static final Map<Class<?>, Set<String>> PRESENT = Map.of(
            StepReport.class, Set.of("name", "deviceStartNs", "deviceEndNs"),
            RankReport.class, Set.of("steps"));
    /** Of those, the ones that may not be {@code null} either. */
    private static final Map<Class<?>, Set<String>> NOT_NULL = Map.of(
            StepReport.class, Set.of("name"),
            RankReport.class, Set.of("steps"));

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);

    /** What is wrong, at a JSON path ({@code ranks[0].steps[3].stepTimeNs}). */
    static final class Problem extends RuntimeException {
        Problem(String message) {
            super(message, null, false, false);
        }
    }

    /** Each record type's components, looked up once (reflection returns a new array per call). */
    private static final ClassValue<RecordComponent[]> COMPONENTS = new ClassValue<>() {
        @Override
        protected RecordComponent[] computeValue(Class<?> type) {
            return type.getRecordComponents();
        }
    };

    /**
     * Where a value is ({@code ranks[0].steps[3].stepTimeNs}), spelled out only for a problem: a
     * summary of thousands of steps has hundreds of thousands of values, nearly always sound.
     */
    private record At(At parent, String field, int index) {
        static final At ROOT = new At(null, null, -1);

        At field(String name) {
            return new At(this, name, -1);
        }

        At index(int i) {
            return new At(this, null, i);
        }

        @Override
        public String toString() {
            if (parent == null) {
                return "";
            }
            String before = parent.toString();
            if (field == null) {
                return before + "[" + index + "]";
            }
            return before.isEmpty() ? field : before + "." + field;
        }
    }

    private SummaryShape() {
    }

    /** Checks {@code root} (the summary without {@code kind}); throws {@link Problem} at the first damage. */
    static void check(ObjectNode root) {
        checkRecord(root, AnalysisReport.class, At.ROOT);
    }

    private static void checkRecord(ObjectNode node, Class<?> type, At path) {
        for (RecordComponent c : COMPONENTS.get(type)) {
            At field = path.field(c.getName());
            JsonNode value = node.get(c.getName());
            Class<?> raw = c.getType();
            if (value == null || value.isNull()) {
                boolean present = PRESENT.getOrDefault(type, Set.of()).contains(c.getName());
                boolean notNull = NOT_NULL.getOrDefault(type, Set.of()).contains(c.getName());
                if (raw.isPrimitive() || (value == null && present) || notNull) {
                    throw new Problem(field + ": required field is " + (value == null ? "missing" : "null"));
                }
                if (List.class.isAssignableFrom(raw)) {
                    node.set(c.getName(), JsonNodeFactory.instance.arrayNode());
                }
                continue;
            }
            checkValue(value, c.getGenericType(), field);
        }
    }

    private static void checkValue(JsonNode value, Type type, At path) {
        if (type instanceof ParameterizedType pt) {
            Class<?> raw = (Class<?>) pt.getRawType();
            Type[] args = pt.getActualTypeArguments();
            if (List.class.isAssignableFrom(raw)) {
                expect(value.isArray(), value, "an array", path);
                for (int i = 0; i < value.size(); i++) {
                    JsonNode e = value.get(i);
                    At at = path.index(i);
                    if (e.isNull()) {
                        throw new Problem(at + ": null in a list");
                    }
                    checkValue(e, args[0], at);
                }
            } else if (Map.class.isAssignableFrom(raw)) {
                expect(value.isObject(), value, "an object", path);
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    At at = path.field(e.getKey());
                    checkKey(e.getKey(), args[0], at);
                    if (e.getValue().isNull()) {
                        throw new Problem(at + ": null in a map");
                    }
                    checkValue(e.getValue(), args[1], at);
                }
            }
            return;
        }
        if (!(type instanceof Class<?> cls)) {
            return;
        }
        if (cls == long.class || cls == Long.class) {
            integer(value, path, value.canConvertToLong(), LONG_MIN, LONG_MAX);
        } else if (cls == int.class || cls == Integer.class) {
            integer(value, path, value.canConvertToInt(), INT_MIN, INT_MAX);
        } else if (cls == double.class || cls == Double.class) {
            expect(value.isNumber(), value, "a number", path);
        } else if (cls == boolean.class || cls == Boolean.class) {
            expect(value.isBoolean(), value, "true or false", path);
        } else if (cls == String.class) {
            expect(value.isTextual(), value, "a string", path);
        } else if (cls.isEnum()) {
            expect(value.isTextual(), value, "a string", path);
            for (Object constant : cls.getEnumConstants()) {
                if (((Enum<?>) constant).name().equals(value.textValue())) {
                    return;
                }
            }
            throw new Problem(path + ": unknown value \"" + abbreviate(value.textValue()) + "\"");
        } else if (cls.isRecord()) {
            expect(value.isObject(), value, "an object", path);
            checkRecord((ObjectNode) value, cls, path);
        }
    }

    private static void checkKey(String key, Type type, At path) {
        if (type == Integer.class || type == Long.class) {
            try {
                if (type == Integer.class) {
                    Integer.parseInt(key);
                } else {
                    Long.parseLong(key);
                }
            } catch (NumberFormatException e) {
                throw new Problem(path + ": key is not an integer");
            }
        }
    }

    /** {@code fits}: the node's own range test, which spares the exact comparison for nearly every value. */
    private static void integer(JsonNode value, At path, boolean fits, BigInteger min, BigInteger max) {
        expect(value.isIntegralNumber(), value, "an integer", path);
        if (fits) {
            return;
        }
        BigInteger v = value.bigIntegerValue();
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new Problem(path + ": integer " + abbreviate(v.toString()) + " is out of range");
        }
    }

    private static void expect(boolean ok, JsonNode value, String what, At path) {
        if (!ok) {
            throw new Problem(path + ": expected " + what + ", got " + kind(value));
        }
    }

    private static String kind(JsonNode v) {
        if (v.isTextual()) {
            return "the string \"" + abbreviate(v.textValue()) + "\"";
        }
        if (v.isNumber()) {
            return "the number " + abbreviate(v.asText());
        }
        if (v.isBoolean()) {
            return String.valueOf(v.booleanValue());
        }
        return v.isArray() ? "an array" : v.isObject() ? "an object" : v.getNodeType().toString().toLowerCase();
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
