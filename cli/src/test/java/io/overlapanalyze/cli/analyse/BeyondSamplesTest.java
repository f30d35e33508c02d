package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.report.LaunchDelay;
import io.overlapanalyze.report.LaunchReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The beyond-DDP samples are the generator's output, and launch diagnostics on the seed scenarios. */
class BeyondSamplesTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"fsdp-late-prefetch", "pipeline-4stage"})
    void committedSampleIsWhatTheGeneratorWrites(String name) throws Exception {
        Path regenerated = tmp.resolve(name + ".pt.trace.json.gz");
        CliRun run = CliRun.of("synth", SamplesTest.samples().resolve(name + ".scenario.json").toString(), "-o",
                regenerated.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertArrayEquals(Files.readAllBytes(SamplesTest.samples().resolve(name + ".pt.trace.json.gz")),
                Files.readAllBytes(regenerated), "samples/" + name + ".pt.trace.json.gz is stale: regenerate it");
    }

    @Test
    void fsdpSampleShowsTheLatePrefetch() throws Exception {
        CliRun run = CliRun.of(SamplesTest.samples().resolve("fsdp-late-prefetch.pt.trace.json.gz").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("parallelism: FSDP"), run.out());
        assertTrue(run.out().contains("late 0.500 ms, compute waited 0.500 ms"), run.out());
    }

    private StepReport analyzeBuiltin(String name) throws Exception {
        Path file = tmp.resolve(name + ".json");
        KinetoScenarioWriter.write(BuiltinScenarios.get(name), file);
        return RankAnalyzer.analyze(TraceFormats.standard().read(file).get(0), AnalysisOptions.defaults()).steps().get(0);
    }

    /**
     * late-last-bucket: g3's data is ready at 6 ms, the host enqueues it 300 µs later and it starts
     * then; g1, g2 start when ready. All 300 µs of start delay are late launch.
     */
    @Test
    void launchDiagnosticsLateLaunch() throws Exception {
        LaunchReport l = analyzeBuiltin("late-last-bucket").launch();
        assertEquals(3, l.collectives().size());
        assertEquals(300_000L, l.startDelayNs());
        assertEquals(300_000L, l.launchLateNs());
        assertEquals(0L, l.commBusyNs());
        assertEquals(0L, l.otherNs());
        assertEquals(1.0, l.launchLateShare(), 0.0);
        LaunchDelay g3 = l.collectives().get(2);
        assertEquals(300_000L, g3.startDelayNs());
        assertEquals(300_000L, g3.enqueueNs() - g3.readyNs());
    }

    /**
     * seed-4ms (metrics.md §7): g2 ready at 4 ms starts at 6 (g1 runs [2,6]), g3 ready at 6 starts
     * at 10: 2 + 4 = 6 ms of start delay, all of it a busy comm stream, none late launch.
     */
    @Test
    void launchDiagnosticsBusyCommStream() throws Exception {
        LaunchReport l = analyzeBuiltin("seed-4ms").launch();
        assertEquals(6_000_000L, l.startDelayNs());
        assertEquals(0L, l.launchLateNs());
        assertEquals(6_000_000L, l.commBusyNs());
        assertEquals(0L, l.otherNs());
        assertEquals(1.0, l.commBusyShare(), 0.0);
        assertEquals(0.0, l.launchLateShare(), 0.0);
        assertNull(analyzeBuiltin("seed-1ms").exposedPrefetchNs(), "no all-gathers: not available, not 0");
    }
}
