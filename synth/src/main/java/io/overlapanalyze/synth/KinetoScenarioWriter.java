package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.overlapanalyze.synth.TraceEventBuilder.TraceEvent;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a {@link Scenario} as a PyTorch-profiler (Kineto) Chrome trace, shaped like a recent
 * PyTorch's: {@code baseTimeNanoseconds} plus relative µs {@code ts}/{@code dur} with exactly 3
 * decimals, {@code distributedInfo}, {@code deviceProperties}, {@code schemaVersion},
 * {@code traceName}. The ground truth it encodes is {@link #plan(Scenario)}.
 *
 * <p>Users reach it through {@code overlap-analyze synth}.
 */
public final class KinetoScenarioWriter {
    private static final JsonFactory JSON = JsonFactory.builder().build();

    private KinetoScenarioWriter() {
    }

    /** The exact device and host timeline that {@code write} encodes. Deterministic. */
    public static SyntheticTimeline plan(Scenario scenario) {
        return TimelinePlanner.plan(scenario);
    }

    /** Writes the trace with {@code traceName} = {@code <scenario name>.pt.trace.json}; returns the plan. */
    public static SyntheticTimeline write(Scenario scenario, OutputStream out) throws IOException {
        return write(scenario, out, scenario.name() + ".pt.trace.json");
    }

    /** Writes the trace (UTF-8, not closing {@code out}); returns the plan it encodes. */
    public static SyntheticTimeline write(Scenario scenario, OutputStream out, String traceName)
            throws IOException {
        return write(scenario, plan(scenario), new TraceEventBuilder(scenario), out, traceName);
    }

    /**
     * Writes the trace as a real capture would have recorded it ({@link CaptureEffects}: device lag,
     * sync rows at host time, a capture that starts mid-step, pipelined steps); returns the plan,
     * whose device times the effects shift by {@code deviceLagNs}.
     */
    public static SyntheticTimeline write(Scenario scenario, CaptureEffects effects, OutputStream out,
            String traceName) throws IOException {
        effects.check(scenario);
        return write(scenario, plan(scenario), new TraceEventBuilder(scenario), out, traceName, effects);
    }

    /** As {@link #write(Scenario, CaptureEffects, OutputStream, String)}, to a file (gzip by name). */
    public static SyntheticTimeline write(Scenario scenario, CaptureEffects effects, Path file) throws IOException {
        effects.check(scenario);
        return toFile(file, (out, traceName) -> write(scenario, effects, out, traceName));
    }

    /** What a trace file holds: written to {@code out}, named {@code traceName}; returns the plan. */
    @FunctionalInterface
    interface Body {
        SyntheticTimeline write(OutputStream out, String traceName) throws IOException;
    }

    /**
     * Writes {@code body} to {@code file}, its parent directories created, through gzip when the
     * name ends with {@code .gz}; the trace is named by the file's path.
     */
    static SyntheticTimeline toFile(Path file, Body body) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            if (file.getFileName().toString().endsWith(".gz")) {
                try (GZIPOutputStream gz = new GZIPOutputStream(raw, 1 << 16)) {
                    SyntheticTimeline t = body.write(gz, file.toString());
                    gz.finish();
                    return t;
                }
            }
            return body.write(raw, file.toString());
        }
    }

    /**
     * A whole trace document of events already built in memory (small scenarios and tests):
     * {@code distributedInfo} with {@code backend}, rank and world size, the events in order, the
     * trace name, the time unit and base.
     */
    static void writeDocument(OutputStream out, String traceName, String backend, int rank, int worldSize,
                              List<TraceEvent> events, long baseTimeNanoseconds) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("schemaVersion", 1);
            g.writeObjectFieldStart("distributedInfo");
            g.writeStringField("backend", backend);
            g.writeNumberField("rank", rank);
            g.writeNumberField("world_size", worldSize);
            g.writeEndObject();
            g.writeFieldName("traceEvents");
            g.writeStartArray();
            for (TraceEvent e : events) {
                writeEvent(g, e);
            }
            g.writeEndArray();
            g.writeStringField("traceName", traceName);
            g.writeStringField("displayTimeUnit", "ms");
            g.writeNumberField("baseTimeNanoseconds", baseTimeNanoseconds);
            g.writeEndObject();
        }
        out.flush();
    }

    /** Writes a planned timeline with the given builder (a job's rank: its own specs and clock); returns it. */
    static SyntheticTimeline write(Scenario scenario, SyntheticTimeline timeline, TraceEventBuilder builder,
            OutputStream out, String traceName) throws IOException {
        return write(scenario, timeline, builder, out, traceName, CaptureEffects.NONE);
    }

    private static SyntheticTimeline write(Scenario scenario, SyntheticTimeline timeline, TraceEventBuilder builder,
            OutputStream out, String traceName, CaptureEffects effects) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            // Key order of a 2024 PyTorch trace (kineto.md §2.1); readers must not rely on it.
            g.writeNumberField("schemaVersion", 1);
            writeDeviceProperties(g, builder.device());
            writeDistributedInfo(g, scenario);
            g.writeFieldName("traceEvents");
            g.writeStartArray();
            // Streamed step by step: memory stays at a few steps' events whatever the trace size.
            if (effects.none()) {
                builder.stream(timeline, e -> writeEvent(g, e));
            } else {
                CaptureEffects.Filter filter = effects.filter(timeline, builder.pid(), builder.device(),
                        e -> writeEvent(g, e));
                builder.stream(timeline, filter);
                filter.finish();
            }
            g.writeEndArray();
            g.writeStringField("traceName", traceName);
            g.writeStringField("displayTimeUnit", "ms");
            g.writeNumberField("baseTimeNanoseconds", timeline.baseTimeNanoseconds());
            g.writeEndObject();
        }
        out.flush();
        return timeline;
    }

    /** Writes to {@code file} (gzip when the name ends with {@code .gz}); returns the plan. */
    public static SyntheticTimeline write(Scenario scenario, Path file) throws IOException {
        return write(scenario, CaptureEffects.NONE, file);
    }

    static void writeEvent(JsonGenerator g, TraceEvent e) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", e.ph());
        if (e.cat() != null) {
            g.writeStringField("cat", e.cat());
        }
        g.writeStringField("name", e.name());
        writeId(g, "pid", e.pid());
        writeId(g, "tid", e.tid());
        g.writeFieldName("ts");
        g.writeNumber(Durations.formatUs(e.ts()));
        if (e.dur() >= 0) {
            g.writeFieldName("dur");
            g.writeNumber(Durations.formatUs(e.dur()));
        }
        if (e.id() != null) {
            g.writeNumberField("id", e.id());
        }
        switch (e.ph()) {
            case "f" -> g.writeStringField("bp", "e");
            case "i" -> g.writeStringField("s", "g");
            default -> { }
        }
        if (e.args() != null) {
            g.writeFieldName("args");
            writeValue(g, e.args());
        }
        g.writeEndObject();
    }

    private static void writeId(JsonGenerator g, String field, Object v) throws IOException {
        g.writeFieldName(field);
        writeValue(g, v);
    }

    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        if (v instanceof String str) {
            g.writeString(str);
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else if (v instanceof Long l) {
            g.writeNumber(l);
        } else if (v instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                writeValue(g, o);
            }
            g.writeEndArray();
        } else if (v instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> en : map.entrySet()) {
                g.writeFieldName(en.getKey().toString());
                writeValue(g, en.getValue());
            }
            g.writeEndObject();
        } else {
            throw new IllegalStateException("unsupported arg value " + v);
        }
    }

    private static void writeDeviceProperties(JsonGenerator g, int device) throws IOException {
        g.writeFieldName("deviceProperties");
        g.writeStartArray();
        g.writeStartObject();
        g.writeNumberField("id", device);
        g.writeStringField("name", "NVIDIA A100-SXM4-80GB");
        g.writeNumberField("totalGlobalMem", 85_097_971_712L);
        g.writeNumberField("computeMajor", 8);
        g.writeNumberField("computeMinor", 0);
        g.writeNumberField("maxThreadsPerBlock", 1024);
        g.writeNumberField("maxThreadsPerMultiprocessor", 2048);
        g.writeNumberField("regsPerBlock", 65536);
        g.writeNumberField("regsPerMultiprocessor", 65536);
        g.writeNumberField("warpSize", 32);
        g.writeNumberField("sharedMemPerBlock", 49152);
        g.writeNumberField("sharedMemPerMultiprocessor", 167936);
        g.writeNumberField("numSms", 108);
        g.writeNumberField("sharedMemPerBlockOptin", 166912);
        g.writeEndObject();
        g.writeEndArray();
    }

    private static void writeDistributedInfo(JsonGenerator g, Scenario s) throws IOException {
        g.writeObjectFieldStart("distributedInfo");
        g.writeStringField("backend", "nccl");
        g.writeNumberField("rank", s.rank());
        g.writeNumberField("world_size", s.worldSize());
        g.writeNumberField("pg_count", 1);
        g.writeArrayFieldStart("pg_config");
        g.writeStartObject();
        g.writeStringField("pg_name", "0");
        g.writeStringField("pg_desc", "default_pg");
        g.writeStringField("backend_config", "cuda:nccl");
        g.writeNumberField("pg_size", s.worldSize());
        g.writeArrayFieldStart("ranks");
        for (int r = 0; r < s.worldSize(); r++) {
            g.writeNumber(r);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeStringField("nccl_version", "2.21.5");
        g.writeEndObject();
    }
}
