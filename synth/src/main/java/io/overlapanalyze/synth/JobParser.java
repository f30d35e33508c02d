package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Job JSON → {@link Job} (format in {@link Job}); strict like {@link ScenarioParser}, for the same reason. */
final class JobParser {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    private static final Set<String> TOP = Set.of("name", "description", "ranks", "scenario", "steps",
            "clockOffsetUs", "slowRank", "delayUs", "bucketTypes", "sequenceNumbers", "perturbations");
    private static final Set<String> PERTURBATION = Set.of("kind", "rank", "step", "bucket", "elements", "dtype",
            "collective");

    private final String source;

    private JobParser(String source) {
        this.source = source;
    }

    /** True when the JSON text looks like a job (has "ranks"), not a single-rank scenario. */
    static boolean looksLikeJob(String json) {
        try {
            JsonNode root = MAPPER.readTree(json);
            return root != null && root.isObject() && root.has("ranks");
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    static Job parse(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ScenarioException("job " + file + ": no such file");
        } catch (IOException e) {
            throw new ScenarioException("job " + file + ": cannot read: " + e.getMessage(), e);
        }
        return parse(text, file.toString());
    }

    static Job parse(String json, String source) {
        return new JobParser(source).read(json);
    }

    private Job read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw fail("not valid JSON: " + JsonWording.describe(e));
        }
        if (root == null || !root.isObject()) {
            throw fail("must be a JSON object");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!TOP.contains(f)) {
                throw fail(f + ": unknown field (known: " + String.join(", ", TOP.stream().sorted().toList()) + ")");
            }
        }
        String name = text(root, "name", null);
        if (name == null || name.isBlank()) {
            throw fail("name: missing (a short name for the job)");
        }
        int ranks = (int) whole(root, "ranks", -1);
        if (ranks < 0) {
            throw fail("ranks: missing (the number of ranks to write)");
        }
        Scenario scenario = scenario(root.get("scenario"), name);
        if (root.has("steps")) {
            scenario = scenario.withSteps((int) whole(root, "steps", 1));
        }
        List<Long> offsets = new ArrayList<>();
        JsonNode off = root.get("clockOffsetUs");
        if (off != null && !off.isNull()) {
            if (!off.isArray()) {
                throw fail("clockOffsetUs: must be an array of µs, one per rank");
            }
            for (JsonNode o : off) {
                if (!o.isNumber()) {
                    throw fail("clockOffsetUs: must hold numbers, got " + o);
                }
                offsets.add(Durations.usToNs(o.decimalValue()));
            }
        }
        List<String> types = new ArrayList<>();
        JsonNode tn = root.get("bucketTypes");
        if (tn != null && !tn.isNull()) {
            if (!tn.isArray()) {
                throw fail("bucketTypes: must be an array of collective types");
            }
            tn.forEach(t -> types.add(t.asText()));
        }
        List<Job.Perturbation> perturbations = new ArrayList<>();
        JsonNode pn = root.get("perturbations");
        if (pn != null && !pn.isNull()) {
            if (!pn.isArray()) {
                throw fail("perturbations: must be an array");
            }
            for (int i = 0; i < pn.size(); i++) {
                perturbations.add(perturbation(pn.get(i), "perturbations[" + i + "]"));
            }
        }
        try {
            return new Job(name, text(root, "description", ""), ranks, scenario, offsets,
                    (int) whole(root, "slowRank", -1), root.has("delayUs") ? us(root, "delayUs") : 0, types,
                    root.has("sequenceNumbers") && root.get("sequenceNumbers").asBoolean(), perturbations);
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail(e.getMessage());
        }
    }

    private Scenario scenario(JsonNode n, String jobName) {
        if (n == null || n.isNull()) {
            throw fail("scenario: missing (a built-in scenario name or a scenario object)");
        }
        if (n.isTextual()) {
            try {
                return BuiltinScenarios.get(n.textValue());
            } catch (ScenarioException e) {
                throw fail("scenario: " + e.getMessage());
            }
        }
        if (!n.isObject()) {
            throw fail("scenario: must be a built-in name or an object");
        }
        ObjectNode copy = ((ObjectNode) n).deepCopy();
        if (!copy.has("name")) {
            copy.put("name", jobName);
        }
        copy.remove("rank");
        copy.remove("worldSize");
        return ScenarioParser.parse(copy.toString(), source + " (scenario)");
    }

    private Job.Perturbation perturbation(JsonNode n, String p) {
        if (!n.isObject()) {
            throw fail(p + ": must be an object like {\"kind\": \"skip\", \"rank\": 1, \"step\": 1, \"bucket\": 3}");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!PERTURBATION.contains(f)) {
                throw fail(p + "." + f + ": unknown field (known: "
                        + String.join(", ", PERTURBATION.stream().sorted().toList()) + ")");
            }
        }
        String kind = text(n, "kind", null);
        if (kind == null) {
            throw fail(p + ".kind: missing (skip, reorder, size, dtype, type)");
        }
        try {
            Job.Perturbation.Kind k = Job.Perturbation.Kind.parse(kind);
            String value = switch (k) {
                case SIZE -> n.has("elements") ? Long.toString(whole(n, "elements", 0)) : null;
                case DTYPE -> text(n, "dtype", null);
                case TYPE -> text(n, "collective", null);
                default -> null;
            };
            return new Job.Perturbation(k, (int) whole(n, "rank", -1), (int) whole(n, "step", -1),
                    (int) whole(n, "bucket", -1), value);
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail(p + ": " + e.getMessage());
        }
    }

    private String text(JsonNode obj, String field, String dflt) {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isTextual()) {
            throw fail(field + ": must be a string, got " + n);
        }
        return n.textValue();
    }

    private long whole(JsonNode obj, String field, long dflt) {
        JsonNode n = obj.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isNumber()) {
            throw fail(field + ": must be a number, got " + n);
        }
        try {
            return n.decimalValue().longValueExact();
        } catch (ArithmeticException e) {
            throw fail(field + ": must be a whole number, got " + n);
        }
    }

    private long us(JsonNode obj, String field) {
        JsonNode n = obj.get(field);
        if (!n.isNumber()) {
            throw fail(field + ": must be a number of µs, got " + n);
        }
        BigDecimal v = n.decimalValue();
        return Durations.usToNs(v);
    }

    private ScenarioException fail(String what) {
        return new ScenarioException("job " + source + ": " + what);
    }
}
