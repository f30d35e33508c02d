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

    /** Writes both files into {@code out} (the capture's ASCEND_PROFILER_OUTPUT). */
    public static void write(SyntheticTimeline timeline, int rank, ProfilerSplit split, Path out) throws IOException {
        try (OutputStream o = Files.newOutputStream(out.resolve("communication.json"));
             JsonGenerator g = JSON.createGenerator(o, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            for (PlannedStep step : timeline.steps()) {
                g.writeObjectFieldStart("step" + step.number());
                g.writeObjectFieldStart("p2p");
                g.writeEndObject();
                g.writeObjectFieldStart("collective");
                for (PlannedReduction r : step.reductions()) {
                    long duration = r.end() - r.start();
                    long transit = Math.min(split.transitNs().applyAsLong(r), duration);
                    g.writeObjectFieldStart(opName(r) + "@" + GROUP_HASH);
                    g.writeObjectFieldStart("Communication Time Info");
                    g.writeFieldName("Start Timestamp(us)");
                    g.writeNumber(BigDecimal.valueOf(timeline.baseTimeNanoseconds() + r.start()).divide(NS_PER_US));
                    ms(g, "Elapse Time(ms)", duration);
                    ms(g, "Transit Time(ms)", transit);
                    ms(g, "Wait Time(ms)", duration - transit);
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
        try (OutputStream o = Files.newOutputStream(out.resolve("communication_matrix.json"));
             JsonGenerator g = JSON.createGenerator(o, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            for (PlannedStep step : timeline.steps()) {
                g.writeObjectFieldStart("step" + step.number());
                g.writeObjectFieldStart("p2p");
                g.writeEndObject();
                g.writeObjectFieldStart("collective");
                g.writeObjectFieldStart("allreduce-total@" + GROUP_HASH);
                for (int peer = 0; peer < split.groupRanks(); peer++) {
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

    /** The device name the timeline gives the reduction. */
    static String opName(PlannedReduction r) {
        return "hcom_allReduce__" + AscendScenarioWriter.GROUP_TAG + "_" + (r.bucket() - 1) + "_1";
    }

    private static void ms(JsonGenerator g, String field, long ns) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(BigDecimal.valueOf(ns).divide(NS_PER_MS));
    }
}
