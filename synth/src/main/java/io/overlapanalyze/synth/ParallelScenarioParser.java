package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.overlapanalyze.synth.ParallelScenario.Common;
import io.overlapanalyze.synth.ParallelScenario.Contention;
import io.overlapanalyze.synth.ParallelScenario.Fsdp;
import io.overlapanalyze.synth.ParallelScenario.Layer;
import io.overlapanalyze.synth.ParallelScenario.MoeEp;
import io.overlapanalyze.synth.ParallelScenario.Pipeline;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads {@link ParallelScenario} files. Strict: unknown fields and duplicate keys are errors, µs read exactly into
 * ns; errors are one-line {@link ScenarioException}s naming the file.
 */
final class ParallelScenarioParser {
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    private static final Set<String> COMMON = Set.of("kind", "name", "description", "rank", "worldSize", "steps",
            "firstStep", "stepGapUs");
    private static final Set<String> FSDP = Set.of("layers", "inputUs", "headUs", "optimizerUs", "syncEvents");
    private static final Set<String> LAYER = Set.of("fwdUs", "bwdUs", "agUs", "bwdAgUs", "rsUs", "paramBytes");
    private static final Set<String> PIPELINE = Set.of("stage", "stages", "microBatches", "fwdUs", "bwdUs",
            "p2pUs", "arrivalIntervalUs", "turnaroundUs", "p2pBytes");
    private static final Set<String> MOE = Set.of("layoutUs", "attentionUs", "mlpUs", "notifyUs", "dispatchUs",
            "combineUs");
    private static final Set<String> CONTENTION = Set.of("kernelUs", "kernels", "slowdownPct", "headUs", "commUs",
            "jitterPct", "seed", "fasterPct");

    private final String source;

    ParallelScenarioParser(String source) {
        this.source = source;
    }

    /** True when the file is a JSON object with a {@code "kind"} field (cheap text check first). */
    static boolean isParallelScenario(Path file) {
        try {
            String text = Files.readString(file);
            if (!text.contains("\"kind\"")) {
                return false;
            }
            JsonNode root = MAPPER.readTree(text);
            return root != null && root.isObject() && root.has("kind");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Reads a scenario file; errors are one-line {@link ScenarioException}s. */
    static ParallelScenario parse(Path file) {
        try {
            return new ParallelScenarioParser(file.toString()).read(Files.readString(file));
        } catch (IOException e) {
            throw new ScenarioException("scenario " + file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Reads scenario JSON text. */
    static ParallelScenario parse(String json, String source) {
        return new ParallelScenarioParser(source).read(json);
    }

    ParallelScenario read(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw fail("not valid JSON: " + JsonWording.describe(e));
        }
        if (root == null || !root.isObject() || !root.has("kind")) {
            throw fail("must be a JSON object with \"kind\" (fsdp, pipeline, contention or moe)");
        }
        String kind = root.get("kind").asText();
        try {
            Common c = new Common(text(root, "name", null), text(root, "description", ""),
                    (int) num(root, "rank", 0), (int) num(root, "worldSize", 2), (int) num(root, "steps", 1),
                    (int) num(root, "firstStep", 1), us(root, "stepGapUs", Durations.us(1000)));
            switch (kind) {
                case "fsdp" -> {
                    check(root, FSDP, "");
                    JsonNode ls = root.get("layers");
                    if (ls == null || !ls.isArray()) {
                        throw fail("layers: must be an array of layers");
                    }
                    List<Layer> layers = new ArrayList<>();
                    for (int i = 0; i < ls.size(); i++) {
                        JsonNode l = ls.get(i);
                        check(l, LAYER, "layers[" + i + "].");
                        layers.add(new Layer(us(l, "fwdUs", -1), us(l, "bwdUs", -1), us(l, "agUs", -1),
                                us(l, "bwdAgUs", us(l, "agUs", -1)), us(l, "rsUs", -1), num(l, "paramBytes", -1)));
                    }
                    boolean sync = !root.has("syncEvents") || root.get("syncEvents").asBoolean();
                    return new Fsdp(c, layers, us(root, "inputUs", Durations.us(500)),
                            us(root, "headUs", Durations.us(500)), us(root, "optimizerUs", 0), sync);
                }
                case "pipeline" -> {
                    check(root, PIPELINE, "");
                    return new Pipeline(c, (int) num(root, "stage", -1), (int) num(root, "stages", -1),
                            (int) num(root, "microBatches", -1), us(root, "fwdUs", -1), us(root, "bwdUs", -1),
                            us(root, "p2pUs", -1), us(root, "arrivalIntervalUs", -1), us(root, "turnaroundUs", -1),
                            num(root, "p2pBytes", 8L * 1024 * 1024));
                }
                case "contention" -> {
                    check(root, CONTENTION, "");
                    return new Contention(c, us(root, "kernelUs", -1), (int) num(root, "kernels", -1),
                            num(root, "slowdownPct", -1), us(root, "headUs", Durations.us(300)),
                            us(root, "commUs", Durations.us(500)),
                            root.has("jitterPct") ? root.get("jitterPct").asDouble() : 0, num(root, "seed", 1),
                            root.has("fasterPct") ? num(root, "fasterPct", -1) : -1);
                }
                case "moe" -> {
                    check(root, MOE, "");
                    return new MoeEp(c, us(root, "layoutUs", Durations.us(200)), us(root, "attentionUs", -1),
                            us(root, "mlpUs", -1), us(root, "notifyUs", Durations.us(100)),
                            us(root, "dispatchUs", -1), us(root, "combineUs", -1));
                }
                default -> throw fail("kind: expected fsdp, pipeline, contention or moe, got '" + kind + "'");
            }
        } catch (ScenarioException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw fail(e.getMessage());
        }
    }

    private void check(JsonNode obj, Set<String> extra, String prefix) {
        if (!obj.isObject()) {
            throw fail(prefix + ": must be an object");
        }
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!extra.contains(f) && (!prefix.isEmpty() || !COMMON.contains(f))) {
                throw fail(prefix + f + ": unknown field");
            }
        }
    }

    private String text(JsonNode obj, String field, String dflt) {
        JsonNode n = obj.get(field);
        if (n == null) {
            if (dflt == null) {
                throw fail(field + ": missing");
            }
            return dflt;
        }
        return n.asText();
    }

    private long num(JsonNode obj, String field, long dflt) {
        JsonNode n = obj.get(field);
        if (n == null) {
            if (dflt < 0) {
                throw fail(field + ": missing");
            }
            return dflt;
        }
        if (!n.isIntegralNumber()) {
            throw fail(field + ": must be an integer");
        }
        return n.asLong();
    }

    private long us(JsonNode obj, String field, long dfltNs) {
        JsonNode n = obj.get(field);
        if (n == null) {
            if (dfltNs < 0) {
                throw fail(field + ": missing");
            }
            return dfltNs;
        }
        if (!n.isNumber()) {
            throw fail(field + ": must be a number of microseconds");
        }
        BigDecimal v = n.decimalValue();
        return Durations.usToNs(v);
    }

    private ScenarioException fail(String what) {
        return new ScenarioException("scenario " + source + ": " + what);
    }
}
