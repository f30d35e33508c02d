package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * Writes the profiler's own communication analysis beside a torch_npu capture written by
 * {@link AscendScenarioWriter}: {@code ASCEND_PROFILER_OUTPUT/communication.json} (per step, per
 * {@code hcom_allReduce__586_<b>_1@<group hash>}: Elapse = the op's device span, Transit as the
 * scenario sets it, Wait = the rest, Synchronization and Idle 0) and
 * {@code communication_matrix.json} (links {@code "<rank>-<peer>"} for every peer of a group of
 * {@code groupRanks} ranks). Layout as ascend.md §7; times are decimal ms, written exactly.
 */
public final class AscendCommunicationWriter {
    /** The group hash: its last 3 digits are the op names' group tag ({@value AscendScenarioWriter#GROUP_TAG}). */
    public static final String GROUP_HASH = "17522688603477080" + AscendScenarioWriter.GROUP_TAG;
    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final BigDecimal NS_PER_MS = BigDecimal.valueOf(1_000_000L);
    private static final BigDecimal NS_PER_US = BigDecimal.valueOf(1_000L);

    /**
     * What the profiler says about each all-reduce.
     *
     * @param transitNs  the Transit time of a reduction (at most its duration)
     * @param groupRanks how many ranks the matrix links in the group
     */
    public record ProfilerSplit(ToLongFunction<PlannedReduction> transitNs, int groupRanks) {
    }

    private AscendCommunicationWriter() {
    }

    /**
     * One HCCL op as the profiler's communication analysis lists it.
     *
     * @param step       the N of {@code step<N>}
     * @param name       the op's device name ({@code hcom_allReduce__586_0_1})
     * @param startNs    its device start, epoch ns
     * @param durationNs its device span (Elapse)
     * @param transitNs  its Transit time (at most the span); Wait = the rest, Synchronization and Idle 0
     */
    public record OpTime(int step, String name, long startNs, long durationNs, long transitNs) {
    }

    /** Writes both files into {@code out} (the capture's ASCEND_PROFILER_OUTPUT) for a scenario's all-reduces. */
    public static void write(SyntheticTimeline timeline, int rank, ProfilerSplit split, Path out) throws IOException {
        List<OpTime> ops = new ArrayList<>();
        for (PlannedStep step : timeline.steps()) {
            for (PlannedReduction r : step.reductions()) {
                long duration = r.end() - r.start();
                ops.add(new OpTime(step.number(), opName(r), timeline.baseTimeNanoseconds() + r.start(), duration,
                        Math.min(split.transitNs().applyAsLong(r), duration)));
            }
        }
        writeJson(out, ops, rank, split.groupRanks());
    }

    /**
     * {@code communication.json} for {@code ops} and, when {@code groupRanks > 0},
     * {@code communication_matrix.json} linking {@code rank} with every rank of the group.
     */
    public static void writeJson(Path out, List<OpTime> ops, int rank, int groupRanks) throws IOException {
        Map<Integer, List<OpTime>> bySteps = new LinkedHashMap<>();
        for (OpTime op : ops) {
            bySteps.computeIfAbsent(op.step(), k -> new ArrayList<>()).add(op);
        }
        try (OutputStream o = Files.newOutputStream(out.resolve("communication.json"));
             JsonGenerator g = JSON.createGenerator(o, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            for (Map.Entry<Integer, List<OpTime>> step : bySteps.entrySet()) {
                g.writeObjectFieldStart("step" + step.getKey());
                g.writeObjectFieldStart("p2p");
                g.writeEndObject();
                g.writeObjectFieldStart("collective");
                for (OpTime op : step.getValue()) {
                    g.writeObjectFieldStart(op.name() + "@" + GROUP_HASH);
                    g.writeObjectFieldStart("Communication Time Info");
                    g.writeFieldName("Start Timestamp(us)");
                    g.writeNumber(BigDecimal.valueOf(op.startNs()).divide(NS_PER_US));
                    ms(g, "Elapse Time(ms)", op.durationNs());
                    ms(g, "Transit Time(ms)", op.transitNs());
                    ms(g, "Wait Time(ms)", op.durationNs() - op.transitNs());
                    ms(g, "Synchronization Time(ms)", 0);
                    ms(g, "Idle Time(ms)", 0);
                    g.writeEndObject();
                    g.writeObjectFieldStart("Communication Bandwidth Info");
                    g.writeEndObject();
                    g.writeEndObject();
                }
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        if (groupRanks <= 0) {
            return;
        }
        try (OutputStream o = Files.newOutputStream(out.resolve("communication_matrix.json"));
             JsonGenerator g = JSON.createGenerator(o, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            for (Integer step : bySteps.keySet()) {
                g.writeObjectFieldStart("step" + step);
                g.writeObjectFieldStart("p2p");
                g.writeEndObject();
                g.writeObjectFieldStart("collective");
                g.writeObjectFieldStart("allreduce-total@" + GROUP_HASH);
                for (int peer = 0; peer < groupRanks; peer++) {
                    g.writeObjectFieldStart(rank + "-" + peer);
                    g.writeStringField("Transport Type", peer == rank ? "LOCAL" : "HCCS");
                    g.writeEndObject();
                }
                g.writeEndObject();
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndObject();
        }
    }

    /**
     * The DB export's {@code CommAnalyzerTime} in {@code analysis.db} (connection {@code c}) for
     * {@code ops}: ms as REAL, as torch_npu writes them.
     */
    public static void writeCommAnalyzerTime(java.sql.Connection c, List<OpTime> ops) throws java.sql.SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
                    + "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
                    + "idle_time NUMERIC, step TEXT, type TEXT)");
        }
        try (java.sql.PreparedStatement ps = c.prepareStatement(
                "INSERT INTO CommAnalyzerTime VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, 'collective')")) {
            for (OpTime op : ops) {
                ps.setString(1, op.name());
                ps.setString(2, GROUP_HASH);
                ps.setString(3, BigDecimal.valueOf(op.startNs()).divide(NS_PER_US).toPlainString());
                ps.setString(4, BigDecimal.valueOf(op.durationNs()).divide(NS_PER_MS).toPlainString());
                ps.setString(5, BigDecimal.valueOf(op.transitNs()).divide(NS_PER_MS).toPlainString());
                ps.setString(6, BigDecimal.valueOf(op.durationNs() - op.transitNs()).divide(NS_PER_MS).toPlainString());
                ps.setString(7, "step" + op.step());
                ps.executeUpdate();
            }
        }
    }

    /** The device name the timeline gives the reduction. */
    static String opName(PlannedReduction r) {
        return "hcom_allReduce__" + AscendScenarioWriter.GROUP_TAG + "_" + (r.bucket() - 1) + "_1";
    }

    private static void ms(JsonGenerator g, String field, long ns) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(BigDecimal.valueOf(ns).divide(NS_PER_MS));
    }
}
