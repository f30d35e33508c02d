package io.overlapanalyze.cli.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.whatif.CostModel;
import io.overlapanalyze.whatif.ReplayBucket;
import io.overlapanalyze.whatif.TraceWorkloads;
import io.overlapanalyze.whatif.TwoEngineReplay;
import io.overlapanalyze.whatif.WhatIfOptions;
import io.overlapanalyze.whatif.WhatIfReport;
import io.overlapanalyze.whatif.Workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Acceptance 1: the seed's timeline (three 2 ms blocks, one bucket after each) replays to 9 ms
 * serial / 7 ms overlapped with a 1 ms tail for 1 ms transfers, and 18 / 14 ms with an 8 ms tail
 * for 4 ms transfers; from the scenario and from the generated trace alike.
 */
class SeedReplayTest {
    private static final long MS = 1_000_000L;

    /** The scenario written by the generator and read back with the Kineto reader. */
    private static RankTrace generated(Scenario s) {
        try {
            Path dir = Files.createTempDirectory("whatif");
            Path file = dir.resolve(s.name() + ".pt.trace.json");
            KinetoScenarioWriter.write(s, file);
            List<RankTrace> traces = new KinetoReader().read(file);
            Files.delete(file);
            Files.delete(dir);
            return traces.get(0);
        } catch (IOException | TraceFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 9, 7, 1", "seed-4ms, 18, 14, 8"})
    void scenarioReplaysToTheSeedNumbers(String name, long serialMs, long stepMs, long tailMs) {
        Workload w = ScenarioWorkloads.of(BuiltinScenarios.get(name));
        TwoEngineReplay.Result r = TwoEngineReplay.replay(w, w.buckets(), null);
        assertEquals(serialMs * MS, r.serialNs());
        assertEquals(stepMs * MS, r.stepTimeNs());
        assertEquals(tailMs * MS, r.tailNs());
        assertEquals(tailMs * MS, r.exposedCommNs()); // the seed's exposedComm equals its tail
        assertEquals(2 * MS, r.firstBucketReadyNs());
        assertEquals(6 * MS, r.lastComputeEndNs());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 9, 7, 1", "seed-4ms, 18, 14, 8"})
    void whatIfOnTheScenarioShowsTheSameAsMeasuredAndForTheMeasuredBuckets(String name, long serialMs, long stepMs,
                                                                          long tailMs) {
        WhatIfReport r = ScenarioWhatIf.fromScenario(BuiltinScenarios.get(name), name, WhatIfOptions.defaults(), "test");
        assertEquals(new WhatIfReport.Measured(stepMs * MS, tailMs * MS, tailMs * MS, 3, 26_214_400L), r.measured());
        WhatIfReport.Option measuredBuckets = r.options().get(0);
        assertEquals("measured buckets", measuredBuckets.label());
        assertEquals(stepMs * MS, measuredBuckets.stepTimeNs());
        assertEquals(tailMs * MS, measuredBuckets.tailNs());
        assertEquals(serialMs * MS, measuredBuckets.serialNs());
        // One message size only: alpha and beta cannot be separated.
        assertEquals(CostModel.Quality.DEGENERATE, r.model().quality());
        assertEquals(0.0, r.model().alphaNs());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 9, 7, 1", "seed-4ms, 18, 14, 8"})
    void generatedTraceReplaysToTheSeedNumbers(String name, long serialMs, long stepMs, long tailMs) {
        TraceWorkloads.Extracted x = TraceWorkloads.extract(generated(BuiltinScenarios.get(name)),
                AnalysisOptions.defaults());
        assertEquals(1, x.steps().size());
        Workload w = x.steps().get(0).workload();
        TwoEngineReplay.Result r = TwoEngineReplay.replay(w, w.buckets(), null);
        assertEquals(serialMs * MS, r.serialNs());
        assertEquals(stepMs * MS, r.stepTimeNs());
        assertEquals(tailMs * MS, r.tailNs());
        assertEquals(List.of(2 * MS, 4 * MS, 6 * MS), w.buckets().stream().map(ReplayBucket::readyNs).toList());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms-optimizer, 7, 1", "seed-4ms-optimizer, 14, 8"})
    void anOptimizerAfterTheReductionsOnlyAddsItsLength(String name, long stepMs, long tailMs) {
        Scenario s = BuiltinScenarios.get(name);
        for (Workload w : List.of(ScenarioWorkloads.of(s), TraceWorkloads.extract(generated(s),
                AnalysisOptions.defaults()).steps().get(0).workload())) {
            TwoEngineReplay.Result r = TwoEngineReplay.replay(w, w.buckets(), null);
            assertEquals(stepMs * MS + BuiltinScenarios.OPTIMIZER_US * 1000, r.stepTimeNs());
            assertEquals(tailMs * MS, r.tailNs());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 7, 1", "seed-4ms, 14, 8"})
    void twiceTheBandwidthHalvesTheTransfers(String name, long stepMs, long tailMs) {
        WhatIfOptions o = new WhatIfOptions(List.of(), 2, 1, 2);
        WhatIfReport r = ScenarioWhatIf.fromScenario(BuiltinScenarios.get(name), name, o, "test");
        WhatIfReport.Option faster = r.options().get(1);
        assertEquals("measured buckets, bandwidth x2", faster.label());
        // 0.5 ms transfers: [2,2.5] [4,4.5] [6,6.5]; 2 ms: [2,4] [4,6] [6,8].
        assertEquals(name.equals("seed-1ms") ? 6_500_000L : 8 * MS, faster.stepTimeNs());
        assertEquals(name.equals("seed-1ms") ? 500_000L : 2 * MS, faster.tailNs());
    }
}
