package io.overlapanalyze.analysis;

import static io.overlapanalyze.analysis.TraceBuilder.AUTOGRAD;
import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/**
 * metrics.md §4's explicit-dependency rule ({@link DataReady}, rule 1) on hand-built traces.
 *
 * <p>The base trace: backward blocks b1 [0,2] b2 [2,4] b3 [4,6] ms on the compute lane, launched
 * by the host ahead of the device at -3.0, -2.8, -2.6 ms. g1 is issued on time (enqueue -2.9 ms,
 * kernel [2,3]); g2 is issued late, at 6 ms, after b3 was launched (kernel [6,7]). The waits,
 * when added, are ProcessGroupNCCL's: event recorded on the compute lane after the bucket's block
 * was launched (g1: -2.95 ms, g2: -2.75 ms, both before the next block's launch), comm lane made
 * to wait just before the NCCL launch.
 */
class DataReadyExplicitTest {
    private static final long G1_ENQUEUE = ORIGIN - 2_900 * US;
    private static final long G1_LAUNCH = G1_ENQUEUE + 10 * US;
    private static final long G2_ENQUEUE = ORIGIN + 6 * MS;
    private static final long G2_LAUNCH = G2_ENQUEUE + 10 * US;
    private static final long G1_RECORD = ORIGIN - 2_950 * US;
    private static final long G2_RECORD = ORIGIN - 2_750 * US;

    /** The base trace; {@code waits} adds stream waits (lanes: 0 compute, 1 comm, 2 side). */
    private static RankTrace trace(Consumer<TraceBuilder> waits) {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("stream 7");
        int comm = b.lane("stream 20");
        b.lane("stream 9"); // a side stream, used by some cases
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - 5 * MS, ORIGIN + 20 * MS, MAIN);
        for (int k = 0; k < 3; k++) {
            b.compute(ORIGIN + 2 * k * MS, ORIGIN + 2 * (k + 1) * MS, compute, ORIGIN - 3 * MS + k * 200 * US, AUTOGRAD);
        }
        b.collective(CollectiveType.ALL_REDUCE, 25L << 20, G1_ENQUEUE, AUTOGRAD, ORIGIN + 2 * MS, ORIGIN + 3 * MS,
                comm, G1_LAUNCH);
        b.collective(CollectiveType.ALL_REDUCE, 25L << 20, G2_ENQUEUE, AUTOGRAD, ORIGIN + 6 * MS, ORIGIN + 7 * MS,
                comm, G2_LAUNCH);
        waits.accept(b);
        return b.build();
    }

    private static StepContext step(RankTrace t) {
        StepAssigner.Assignment a = StepAssigner.assign(t);
        assertEquals(1, a.steps().size());
        return new StepContext(t, a.steps().get(0), new PhaseClassifier(t));
    }

    private static DataReady.Ready ready(DataReady d, StepContext s, int collective) {
        return d.readyFor(s.collective(collective));
    }

    @Test
    void explicitDependencyWinsOverLaunchOrder() {
        RankTrace t = trace(b -> b.streamWait(1, G1_LAUNCH - 4 * US, 0, G1_RECORD)
                .streamWait(1, G2_LAUNCH - 4 * US, 0, G2_RECORD));
        StepContext s = step(t);
        DataReady d = new DataReady(s);
        // g2 waited for what was launched on the compute lane before its record: b1, b2.
        assertEquals(new DataReady.Ready(ORIGIN + 4 * MS, false, true), ready(d, s, 1));
        assertEquals(new DataReady.Ready(ORIGIN + 2 * MS, false, true), ready(d, s, 0));
        assertEquals(2, d.explicitCount());
        assertEquals(0, d.fallbackWithWaitsCount());

        // The same trace without waits: the launch-order rule takes b3 (launched before g2's
        // late enqueue) although g2 never waited for it.
        StepContext plain = step(trace(b -> { }));
        DataReady fallback = new DataReady(plain);
        assertEquals(new DataReady.Ready(ORIGIN + 6 * MS, false, false), ready(fallback, plain, 1));
        assertEquals(0, fallback.explicitCount());
    }

    @Test
    void explicitDependencyDecidesTheAttributionAndIsNoted() {
        // g2 ends last; tail = 7 - 6 = 1 ms. Explicit: g2's data (4 ms) was ready long before its
        // start (6 ms) and the enqueue (6 ms) binds it: LAUNCH_BOUND. Fallback: data-ready 6 ms
        // ties with the enqueue and DATA wins ties: LAST_BUCKET.
        RankTrace withWaits = trace(b -> b.streamWait(1, G1_LAUNCH - 4 * US, 0, G1_RECORD)
                .streamWait(1, G2_LAUNCH - 4 * US, 0, G2_RECORD));
        StepReport explicit = RankAnalyzer.analyze(withWaits).steps().get(0);
        assertEquals(TailKind.LAUNCH_BOUND, explicit.attribution().kind());
        assertEquals(BoundBy.LAUNCH, explicit.attribution().chain().get(0).boundBy());
        assertEquals(ORIGIN + 4 * MS, explicit.markers().lastBucketReadyNs());
        assertEquals(3 * MS, explicit.lastBucketTailNs());
        assertTrue(explicit.notes().contains(RankAnalyzer.NOTE_EXPLICIT_DEPENDENCIES), explicit.notes().toString());
        assertFalse(explicit.approximate());

        StepReport plain = RankAnalyzer.analyze(trace(b -> { })).steps().get(0);
        assertEquals(TailKind.LAST_BUCKET, plain.attribution().kind());
        assertEquals(ORIGIN + 6 * MS, plain.markers().lastBucketReadyNs());
        assertFalse(plain.notes().contains(RankAnalyzer.NOTE_EXPLICIT_DEPENDENCIES));
        assertFalse(plain.notes().contains(RankAnalyzer.NOTE_EXPLICIT_FALLBACK));
    }

    @Test
    void noUsableWaitFallsBackToLaunchOrder() {
        // g1's wait is fine; g2's is useless in a different way each time.
        String[] cases = {"record unknown", "after the launch", "before the previous collective", "no lane"};
        for (String c : cases) {
            RankTrace t = trace(b -> {
                b.streamWait(1, G1_LAUNCH - 4 * US, 0, G1_RECORD);
                switch (c) {
                    case "record unknown" -> b.streamWait(1, G2_LAUNCH - 4 * US, 0, Time.UNKNOWN);
                    case "after the launch" -> b.streamWait(1, G2_LAUNCH + 1, 0, G2_RECORD);
                    // Submitted before g1's kernel: it gates g1, not g2.
                    case "before the previous collective" -> b.streamWait(1, G1_LAUNCH - 2 * US, 0, G2_RECORD);
                    default -> b.streamWait(1, G2_LAUNCH - 4 * US, -1, G2_RECORD);
                }
            });
            StepContext s = step(t);
            DataReady d = new DataReady(s);
            assertEquals(new DataReady.Ready(ORIGIN + 6 * MS, false, false), ready(d, s, 1), c);
            assertEquals(1, d.fallbackWithWaitsCount(), c);
            StepReport r = RankAnalyzer.analyze(t).steps().get(0);
            assertTrue(r.notes().contains(RankAnalyzer.NOTE_EXPLICIT_FALLBACK), c + " " + r.notes());
        }
    }

    @Test
    void onlyTheRecordedLaneCountsAndAllWaitsOfTheCollectiveDo() {
        // g2 waits on two events: the compute lane recorded after b1's launch (ready 2 ms) and a
        // side stream whose kernel [3, 4.5] ms was launched before its record. Latest: 4.5 ms.
        // The compute lane's b2/b3 (launched before g2's enqueue) are not its dependencies.
        RankTrace t = trace(b -> {
            b.compute(ORIGIN + 3 * MS, ORIGIN + 4_500 * US, 2, ORIGIN - 2_700 * US, AUTOGRAD);
            b.streamWait(1, G2_LAUNCH - 6 * US, 0, G1_RECORD);
            b.streamWait(1, G2_LAUNCH - 4 * US, 2, ORIGIN - 2_650 * US);
        });
        StepContext s = step(t);
        assertEquals(new DataReady.Ready(ORIGIN + 4_500 * US, false, true), ready(new DataReady(s), s, 1));
    }

    @Test
    void recordBeforeAnyComputeOfTheStepFallsBack() {
        // The event was recorded before anything of this step was launched on that lane: the
        // dependency is on earlier work (or through a stream not followed); launch order decides.
        RankTrace t = trace(b -> b.streamWait(1, G2_LAUNCH - 4 * US, 0, ORIGIN - 4 * MS));
        StepContext s = step(t);
        DataReady d = new DataReady(s);
        assertEquals(new DataReady.Ready(ORIGIN + 6 * MS, false, false), ready(d, s, 1));
        assertEquals(0, d.explicitCount());
    }

    @Test
    void waitsOfAnotherStepAreNotUsed() {
        // A usable-looking wait submitted before this step's host span: not g1's.
        RankTrace t = trace(b -> b.streamWait(1, ORIGIN - 6 * MS, 0, G1_RECORD));
        StepContext s = step(t);
        DataReady d = new DataReady(s);
        assertEquals(new DataReady.Ready(ORIGIN + 2 * MS, false, false), ready(d, s, 0));
        assertEquals(1, d.fallbackWithWaitsCount());
    }
}
