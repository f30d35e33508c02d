package io.overlapanalyze.whatif;

import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.ModelScenario;
import io.overlapanalyze.synth.Scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: generate a trace with the project's generator and read it back with the Kineto reader. */
final class Generated {
    static final long MIB = ModelScenario.MIB;

    private Generated() {
    }

    static RankTrace trace(Scenario s) {
        try {
            Path dir = Files.createTempDirectory("whatif");
            Path file = dir.resolve(s.name() + ".pt.trace.json");
            KinetoScenarioWriter.write(s, file);
            List<RankTrace> traces = new KinetoReader().read(file);
            Files.delete(file);
            Files.delete(dir);
            return traces.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (io.overlapanalyze.formats.input.TraceFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A GPT-2-small-like stack of 12 transformer blocks (hidden 768), backward order: per block
     * fc2, fc1, a layer norm, attention projection, qkv, a layer norm. Backward compute time is
     * proportional to the parameters (a GEMM's backward FLOPs are): {@code usPerMB} µs per MB.
     */
    static List<ModelScenario.Layer> gptLayers(int blocks, long nsPerKB) {
        long fc = 768L * 3072 * 4;
        long qkv = 768L * 2304 * 4;
        long proj = 768L * 768 * 4;
        long ln = 2L * 768 * 4;
        List<ModelScenario.Layer> layers = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            for (long bytes : new long[] {fc, fc, ln, proj, qkv, ln}) {
                layers.add(new ModelScenario.Layer(Math.max(5_000, bytes / 1000 * nsPerKB), 1, bytes));
            }
        }
        return layers;
    }

    static ModelScenario gpt(long capBytes, long alphaNs, double betaBytesPerNs, int steps, double jitterPct) {
        return new ModelScenario("gpt-cap" + capBytes / MIB, "GPT-2-small-like, 12 blocks", 0, 8, steps, 1,
                8_000_000, gptLayers(12, 50), capBytes, alphaNs, betaBytesPerNs, 1_500_000, 1_000_000, jitterPct, 7);
    }
}
