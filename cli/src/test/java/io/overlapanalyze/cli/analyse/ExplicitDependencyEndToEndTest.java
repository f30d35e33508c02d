package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * metrics.md §4's explicit-dependency rule, through the whole product: {@code synth} writes
 * {@code late-middle-bucket-sync} (cuda_sync stream waits on), the reader reads it, the analyzer
 * computes. Expected values are derived here from the scenario's own parameters (block length
 * B, all-reduce length C, delay D of bucket 2), never from the analysis:
 *
 * <pre>
 * compute  [0,B] [B,2B] [2B,3B]
 * g1  ready B,  on time        → [B, B+C]
 * g2  ready 2B, enqueued 2B+D  → [2B+D, 2B+D+C]          (D = B: enqueued as block 3 ends)
 * g3  ready 3B, queues on g2   → [2B+D+C, 2B+D+2C]
 * </pre>
 * The same scenario written without the sync events differs exactly where the launch-order
 * fallback is wrong: g2's data-ready becomes block 3's end (3B, launched before g2's late
 * enqueue), which coincides with g2's start and wins the DATA/LAUNCH tie, so the verdict flips
 * from LAUNCH_BOUND (true: the host issued g2 late) to COMM_BOUND.
 */
class ExplicitDependencyEndToEndTest {
    private static final String SCENARIO = "late-middle-bucket-sync";

    @TempDir
    Path tmp;

    /** Block length, all-reduce length and g2's delay, read from the scenario definition. */
    private record Params(long b, long c, long d) {
        static Params of(Scenario s) {
            List<Scenario.Block> blocks = s.backward();
            assertEquals(3, blocks.size());
            long b = blocks.get(0).ns();
            long c = blocks.get(0).bucket().commNs();
            for (Scenario.Block block : blocks) {
                assertEquals(b, block.ns(), "equal blocks");
                assertEquals(c, block.bucket().commNs(), "equal all-reduces");
            }
            assertEquals(0, blocks.get(0).bucket().launchDelayNs());
            assertEquals(0, blocks.get(2).bucket().launchDelayNs());
            long d = blocks.get(1).bucket().launchDelayNs();
            // The point of the scenario: g2 is enqueued exactly when block 3 ends.
            assertEquals(b, d, "g2's delay is one block");
            return new Params(b, c, d);
        }
    }

    @Test
    void explicitDependenciesGiveTheScenariosAnswer() throws Exception {
        Scenario scenario = BuiltinScenarios.get(SCENARIO);
        assertTrue(scenario.syncEvents());
        Params p = Params.of(scenario);
        Path trace = tmp.resolve(SCENARIO + ".pt.trace.json");
        assertEquals(0, CliRun.of("synth", SCENARIO, "-o", trace.toString()).exitCode());
        RankTrace read = TraceFormats.standard().read(trace).get(0);
        assertEquals(3, read.streamWaits().size(), "one stream wait per bucket");

        StepReport s = analyze(read);
        long t0 = s.deviceStartNs();
        assertCommonMarkers(s, p, t0);
        assertTrue(s.notes().contains(RankAnalyzer.NOTE_EXPLICIT_DEPENDENCIES), s.notes().toString());
        assertFalse(s.notes().contains(RankAnalyzer.NOTE_EXPLICIT_FALLBACK), s.notes().toString());

        assertEquals(TailKind.LAUNCH_BOUND, s.attribution().kind());
        List<ChainLink> chain = s.attribution().chain();
        assertEquals(List.of(BoundBy.QUEUE, BoundBy.LAUNCH), chain.stream().map(ChainLink::boundBy).toList());
        ChainLink g3 = chain.get(0);
        ChainLink g2 = chain.get(1);
        assertEquals(2 * p.b() + p.d() + p.c(), g3.startNs() - t0, "g3 starts when g2 ends");
        assertEquals(3 * p.b(), g3.dataReadyNs() - t0, "g3 ready at block 3's end");
        assertEquals(2 * p.b() + p.d() + p.c(), g3.queueFreeNs() - t0);
        assertEquals(2 * p.b() + p.d(), g2.startNs() - t0);
        assertEquals(2 * p.b(), g2.dataReadyNs() - t0, "g2 depends on block 2 only");
        assertEquals(2 * p.b() + p.d(), g2.enqueueNs() - t0, "g2 enqueued D after its data");
    }

    @Test
    void withoutSyncEventsTheLaunchOrderFallbackMisreadsTheLateBucket() throws Exception {
        Scenario scenario = BuiltinScenarios.get(SCENARIO).withSyncEvents(false);
        Params p = Params.of(scenario);
        Path trace = tmp.resolve("no-sync.pt.trace.json");
        try (OutputStream out = Files.newOutputStream(trace)) {
            KinetoScenarioWriter.write(scenario, out);
        }
        RankTrace read = TraceFormats.standard().read(trace).get(0);
        assertTrue(read.streamWaits().isEmpty());

        StepReport s = analyze(read);
        long t0 = s.deviceStartNs();
        // g1 and gL are unaffected: their producers are the last blocks launched before their enqueue.
        assertCommonMarkers(s, p, t0);
        assertFalse(s.notes().contains(RankAnalyzer.NOTE_EXPLICIT_DEPENDENCIES), s.notes().toString());

        // g2: block 3 was launched before g2's late enqueue, so the fallback takes its end (3B) as
        // g2's data-ready; 3B = 2B + D is g2's start, tied with the enqueue, and DATA wins ties.
        assertEquals(TailKind.COMM_BOUND, s.attribution().kind());
        List<ChainLink> chain = s.attribution().chain();
        assertEquals(List.of(BoundBy.QUEUE, BoundBy.DATA), chain.stream().map(ChainLink::boundBy).toList());
        assertEquals(3 * p.b(), chain.get(1).dataReadyNs() - t0, "fallback: block 3's end");
        assertEquals(2 * p.b() + p.d(), chain.get(1).startNs() - t0);
    }

    private static StepReport analyze(RankTrace trace) {
        List<StepReport> steps = RankAnalyzer.analyze(trace, AnalysisOptions.defaults()).steps();
        assertEquals(1, steps.size());
        StepReport s = steps.get(0);
        assertFalse(s.partial());
        assertFalse(s.approximate());
        return s;
    }

    /** Markers and exposure, the same with and without sync events (g1 and gL are on time). */
    private static void assertCommonMarkers(StepReport s, Params p, long t0) {
        long lastReduceEnd = 2 * p.b() + p.d() + 2 * p.c();
        assertEquals(p.b(), s.markers().firstBucketReadyNs() - t0, "firstBucketReady");
        assertEquals(p.b(), s.markers().reduceStartNs() - t0, "reduceStart");
        assertEquals(3 * p.b(), s.markers().lastComputeEndNs() - t0, "lastComputeEnd");
        assertEquals(lastReduceEnd, s.markers().lastReduceEndNs() - t0, "lastReduceEnd");
        assertEquals(3 * p.b(), s.markers().lastBucketReadyNs() - t0, "lastBucketReady");
        assertEquals(lastReduceEnd - 3 * p.b(), s.tailNs(), "tail");
        assertEquals(lastReduceEnd - 3 * p.b(), s.lastBucketTailNs(), "lastBucketTail");
        assertEquals(0L, s.startDelayNs(), "g1 starts as its data is ready");
        assertEquals(0L, s.launchLateNs(), "g1 was enqueued before its data was ready");
        assertEquals(lastReduceEnd, s.stepTimeNs(), "stepTime: the sync events do not widen the window");
        assertEquals(3, s.gradCollectives());
    }
}
