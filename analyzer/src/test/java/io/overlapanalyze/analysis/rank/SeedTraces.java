package io.overlapanalyze.analysis.rank;

import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Valid small traces of one seed scenario ({@code seed-1ms-optimizer}) in each format, written by the
 * generator: what the fuzz and hostile-input tests (here and the CLI's) mutate or place beside bad input.
 */
public final class SeedTraces {
    private SeedTraces() {
    }

    /** The scenario every seed trace is written from. */
    public static Scenario scenario() {
        return BuiltinScenarios.get("seed-1ms-optimizer");
    }

    /** A valid Kineto trace (66 events, about 20 kB). */
    public static byte[] kineto() {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            KinetoScenarioWriter.write(scenario(), out, "seed.pt.trace.json");
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A valid Ascend {@code trace_view.json}. */
    public static byte[] ascend() {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AscendScenarioWriter.writeTimeline(scenario(), AscendScenarioWriter.plan(scenario()), out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A valid Nsight SQLite export, written to {@code file}. */
    public static Path nsys(Path file) throws IOException {
        NsysScenarioWriter.write(scenario(), file);
        return file;
    }

    /** {@code data} gzip-compressed. */
    public static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(data);
        }
        return bos.toByteArray();
    }
}
