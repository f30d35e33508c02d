package io.overlapanalyze.analysis.rank;


import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed's worked examples (metrics.md §7) written as an Nsight-style
 * SQLite export give exactly the §7 numbers through the whole product (scenario generator →
 * SQLite → NsysReader via the front door → analyzer). Expected values are the §7 table in ms.
 */
class NsysSeedExamplesEndToEndTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "seed-1ms,           0, 1",
            "seed-4ms,           0, 4",
            "seed-1ms-optimizer, 1, 1",
            "seed-4ms-optimizer, 1, 4"})
    void seedTableHoldsExactly(String scenario, int withOptimizer, int commMs) throws Exception {
        Path export = tmp.resolve(scenario + ".sqlite");
        NsysScenarioWriter.write(BuiltinScenarios.get(scenario), export);
        List<RankTrace> traces = TraceFormats.standard().read(export);
        assertEquals(1, traces.size());
        RankTrace trace = traces.get(0);
        assertEquals(TraceFormat.NSYS, trace.format());
        assertEquals(RankSource.TRACE, trace.rankSource(), "RANK in the recorded environment");
        RankReport rank = RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
        assertEquals(1, rank.steps().size(), "one step");
        StepReport s = rank.steps().get(0);
        assertEquals("ProfilerStep#1", s.name());
        SeedTable.assertHolds(s, scenario, withOptimizer, commMs);
    }

    /**
     * Every built-in scenario gives the same step reports from its SQLite export as from its Kineto
     * trace: the two writers encode one plan, and the two readers are independent implementations.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"seed-1ms", "seed-4ms-optimizer", "late-last-bucket", "training-jitter"})
    void sqliteAndKinetoAgree(String scenario) throws Exception {
        Scenario s = BuiltinScenarios.get(scenario);
        Path kineto = tmp.resolve(scenario + ".pt.trace.json");
        try (OutputStream out = Files.newOutputStream(kineto)) {
            KinetoScenarioWriter.write(s, out);
        }
        Path nsys = tmp.resolve(scenario + ".sqlite");
        NsysScenarioWriter.write(s, nsys);
        RankReport a = RankAnalyzer.analyze(TraceFormats.standard().read(kineto).get(0), AnalysisOptions.defaults());
        RankReport b = RankAnalyzer.analyze(TraceFormats.standard().read(nsys).get(0), AnalysisOptions.defaults());
        assertEquals(a.steps().size(), b.steps().size());
        for (int i = 0; i < a.steps().size(); i++) {
            StepReport x = a.steps().get(i);
            StepReport y = b.steps().get(i);
            assertEquals(x.name(), y.name());
            assertEquals(x.deviceStartNs(), y.deviceStartNs(), "same epoch clock");
            assertEquals(x.markers(), y.markers(), x.name());
            assertEquals(x.tailNs(), y.tailNs(), x.name());
            assertEquals(x.launchLateNs(), y.launchLateNs(), x.name());
            // The export carries no message sizes (NCCL payloads are not exported by default): bytes
            // are unknown on the SQLite side; everything else of the chain must agree.
            assertEquals(x.attribution().kind(), y.attribution().kind(), x.name());
            assertEquals(withoutBytes(x.attribution().chain()), y.attribution().chain(), x.name());
            assertEquals(x.commBusyNs(), y.commBusyNs());
            assertEquals(x.computeBusyNs(), y.computeBusyNs());
            assertEquals(x.exposedCommNs(), y.exposedCommNs());
            assertEquals(x.gradCollectives(), y.gradCollectives());
            assertEquals(x.partial(), y.partial());
        }
        assertEquals(a.totals(), b.totals());
    }

    private static List<ChainLink> withoutBytes(List<ChainLink> chain) {
        return chain.stream().map(l -> new ChainLink(l.collective(), l.type(), null, l.startNs(), l.endNs(),
                l.dataReadyNs(), l.enqueueNs(), l.queueFreeNs(), l.boundBy())).toList();
    }

    /** One export with several processes (nsys around torchrun): one rank each, numbered by device. */
    @Test
    void oneExportWithTwoProcessesGivesTwoRanks() throws Exception {
        Scenario s = BuiltinScenarios.get("seed-4ms");
        Path export = tmp.resolve("torchrun.sqlite");
        NsysScenarioWriter.write(List.of(s.withRank(0, 2), s.withRank(1, 2)), export);
        List<RankTrace> traces = TraceFormats.standard().read(export);
        assertEquals(2, traces.size());
        for (int r = 0; r < 2; r++) {
            RankTrace t = traces.get(r);
            assertEquals(r, t.rank());
            assertEquals(RankSource.INFERRED, t.rankSource(), "no per-process rank in one export");
            assertTrue(t.warnings().stream().anyMatch(w -> w.contains("CUDA device order")), t.warnings().toString());
            StepReport step = RankAnalyzer.analyze(t, AnalysisOptions.defaults()).steps().get(0);
            assertEquals(8 * MS, step.tailNs());
            assertEquals(TailKind.COMM_BOUND, step.attribution().kind());
        }
    }

    /** One export per rank: the front door reads each, rank ids from the recorded RANK. */
    @Test
    void oneExportPerRankThroughTheFrontDoor() throws Exception {
        Scenario s = BuiltinScenarios.get("seed-1ms");
        NsysScenarioWriter.write(s.withRank(0, 2), tmp.resolve("rank0.sqlite"));
        NsysScenarioWriter.write(s.withRank(1, 2), tmp.resolve("rank1.sqlite"));
        List<RankTrace> traces = TraceFormats.standard().readAll(List.of(tmp), ReadOptions.DEFAULT);
        assertEquals(2, traces.size(), "the directory's two exports");
        assertEquals(List.of(0, 1), traces.stream().map(RankTrace::rank).sorted().toList());
        assertTrue(traces.stream().allMatch(t -> t.rankSource() == RankSource.TRACE && t.worldSize() == 2));
    }
}
