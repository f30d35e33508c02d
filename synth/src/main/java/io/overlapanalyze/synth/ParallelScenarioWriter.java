package io.overlapanalyze.synth;

import io.overlapanalyze.synth.TraceEventBuilder.TraceEvent;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a {@link ParallelScenario} (FSDP, pipeline, contention, MoE) as a Kineto trace; the MoE
 * scenario also as an Nsight Systems export ({@link EventsNsysWriter}, the same events).
 */
public final class ParallelScenarioWriter {

    private ParallelScenarioWriter() {
    }

    /** Built-in parallelism scenario names. */
    public static List<String> builtinNames() {
        return ParallelScenario.builtinNames();
    }

    /** One-line description of a built-in, or {@code null}. */
    public static String description(String name) {
        ParallelScenario s = ParallelScenario.builtin(name);
        return s == null ? null : s.common().description();
    }

    /** True when the file declares a {@code "kind"} (a parallelism scenario rather than a DDP one). */
    public static boolean isParallelScenario(Path file) {
        return ParallelScenarioParser.isParallelScenario(file);
    }

    /** The scenario's name (file or built-in). */
    public static String name(String builtinOrFile) {
        return resolve(builtinOrFile).common().name();
    }

    /** A built-in name or a scenario file path; {@link ScenarioException} otherwise. */
    static ParallelScenario resolve(String builtinOrFile) {
        ParallelScenario s = ParallelScenario.builtin(builtinOrFile);
        return s != null ? s : ParallelScenarioParser.parse(Path.of(builtinOrFile));
    }

    /** Writes the named built-in or file's scenario (UTF-8, not closing {@code out}). */
    public static void write(String builtinOrFile, OutputStream out, String traceName) throws IOException {
        write(resolve(builtinOrFile), out, traceName);
    }

    /** Writes scenario JSON text's scenario (tests). */
    public static void writeJson(String scenarioJson, OutputStream out, String traceName) throws IOException {
        write(ParallelScenarioParser.parse(scenarioJson, "<string>"), out, traceName);
    }

    static void write(ParallelScenario s, OutputStream out, String traceName) throws IOException {
        EventSink sink;
        if (s instanceof ParallelScenario.Fsdp f) {
            sink = FsdpPlanner.emit(f);
        } else if (s instanceof ParallelScenario.Pipeline p) {
            sink = PipelinePlanner.emit(p);
        } else if (s instanceof ParallelScenario.MoeEp m) {
            sink = MoePlanner.emit(m);
        } else {
            sink = ContentionPlanner.emit((ParallelScenario.Contention) s);
        }
        List<TraceEvent> events = sink.build();
        KinetoScenarioWriter.writeDocument(out, traceName, "nccl", s.common().rank(), s.common().worldSize(), events,
                TimelinePlanner.BASE_TIME_NS);
    }

    /** True when the scenario can also be written as an Nsight Systems export. */
    public static boolean writesNsys(String builtinOrFile) {
        return resolve(builtinOrFile) instanceof ParallelScenario.MoeEp;
    }

    /** Writes the scenario as an Nsight Systems SQLite export (replacing {@code file}). */
    public static void writeNsys(String builtinOrFile, Path file) throws IOException {
        ParallelScenario s = resolve(builtinOrFile);
        if (!(s instanceof ParallelScenario.MoeEp m)) {
            throw new ScenarioException(s.common().name() + ": only MoE scenarios are written as Nsight exports");
        }
        EventsNsysWriter.write(MoePlanner.emit(m).build(), s.common().name(), s.common().rank(),
                s.common().worldSize(), TimelinePlanner.BASE_TIME_NS, file);
    }

    /** Writes to {@code file} (gzip when the name ends with {@code .gz}). */
    public static void write(String builtinOrFile, Path file) throws IOException {
        ParallelScenario s = resolve(builtinOrFile);
        try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            if (file.getFileName().toString().endsWith(".gz")) {
                try (GZIPOutputStream gz = new GZIPOutputStream(raw, 1 << 16)) {
                    write(s, gz, file.getFileName().toString());
                    gz.finish();
                }
            } else {
                write(s, raw, file.getFileName().toString());
            }
        }
    }
}
