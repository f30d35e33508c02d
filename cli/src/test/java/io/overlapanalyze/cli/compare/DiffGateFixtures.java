package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs for the diff/gate/summary tests, written by the scenario generator as users would. */
public final class DiffGateFixtures {
    public static final long MS = 1_000_000L;

    private DiffGateFixtures() {
    }

    /** A built-in seed scenario as a run of {@code steps} steps with {@code jitterPct} jitter from {@code seed}. */
    public static Path seedRun(Path dir, String scenario, int steps, double jitterPct, long seed) throws IOException {
        Scenario s = BuiltinScenarios.get(scenario).withSteps(steps).withJitter(jitterPct, seed);
        Path file = dir.resolve(scenario + "-" + steps + "x-seed" + seed + ".pt.trace.json.gz");
        KinetoScenarioWriter.write(s, file);
        return file;
    }

    /** Runs the CLI expecting {@code code}; shows stderr on mismatch. */
    public static CliRun expect(int code, String... args) {
        CliRun r = CliRun.of(args);
        assertEquals(code, r.exitCode(), () -> "exit code of " + String.join(" ", args) + "\nstdout:\n" + r.out()
                + "\nstderr:\n" + r.err());
        return r;
    }

    public static JsonNode json(String text) throws IOException {
        return JsonRenderer.mapper().readTree(text);
    }

    /** The entry of {@code metrics[]} (diff) or {@code checks[]} (gate) named {@code metric}. */
    public static JsonNode entry(JsonNode array, String metric) {
        for (JsonNode n : array) {
            if (n.get("metric").asText().equals(metric)) {
                return n;
            }
        }
        throw new AssertionError("no entry " + metric + " in " + array);
    }
}
