package io.overlapanalyze.analysis.rank;

import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.BuiltinScenarios;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The seed's worked examples (metrics.md §7) as assertions, shared by the end-to-end tests of
 * every input format: the table must come out exactly whatever the trace was written as. The CLI's
 * tests that check the same table through the commands hold a copy ({@code cli/.../analyse/SeedTable}):
 * the project shares no test classes between modules; the two must stay equal.
 */
public final class SeedTable {
    public static final long MS = 1_000_000L;

    private SeedTable() {
    }

    /**
     * Checks every cell of the §7 table on the one step of a seed scenario.
     *
     * @param scenario      the built-in scenario the trace was written from
     * @param withOptimizer 1 for the variants with an optimizer kernel after the last reduction
     * @param commMs        1 or 4: the communication time per bucket
     */
    public static void assertHolds(StepReport s, String scenario, int withOptimizer, int commMs) {
        assertFalse(s.partial());
        long t0 = s.deviceStartNs();
        // The optimizer variants add one kernel after the last reduction; only stepTime,
        // computeBusy and serialEstimate grow, by the scenario's own optimizer duration.
        long optimizerNs = withOptimizer == 1 ? BuiltinScenarios.get(scenario).optimizerNs() : 0;

        assertEquals(2 * MS, s.markers().firstBucketReadyNs() - t0, "firstBucketReady");
        assertEquals(2 * MS, s.markers().reduceStartNs() - t0, "reduceStart");
        assertEquals(6 * MS, s.markers().lastComputeEndNs() - t0, "lastComputeEnd");
        long lastReduceEnd = commMs == 1 ? 7 * MS : 14 * MS;
        assertEquals(lastReduceEnd, s.markers().lastReduceEndNs() - t0, "lastReduceEnd");
        long tail = commMs == 1 ? MS : 8 * MS;
        assertEquals(tail, s.tailNs(), "tail");
        assertEquals(tail, s.lastBucketTailNs(), "lastBucketTail");
        assertEquals(lastReduceEnd + optimizerNs, s.stepTimeNs(), "stepTime");
        assertEquals(6 * MS + 3 * commMs * MS + optimizerNs, s.serialEstimateNs(), "serialEstimate");
        assertEquals(6 * MS + optimizerNs, s.computeBusyNs(), "computeBusy");
        assertEquals(tail, s.exposedCommNs(), "exposedComm");
        assertEquals(commMs == 1 ? 2.0 / 3.0 : 1.0 / 3.0, s.overlapRatio(), 0.0, "overlapRatio");
        assertEquals(3, s.gradCollectives(), "three gradient all-reduces, enqueued in backward");
        assertEquals(0L, s.startDelayNs());
        assertEquals(0L, s.launchLateNs());

        List<ChainLink> chain = s.attribution().chain();
        if (commMs == 1) {
            assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
            assertEquals(1, chain.size());
            assertEquals(BoundBy.DATA, chain.get(0).boundBy());
            assertEquals(6 * MS, chain.get(0).startNs() - t0);
        } else {
            assertEquals(TailKind.COMM_BOUND, s.attribution().kind());
            assertEquals(List.of(BoundBy.QUEUE, BoundBy.QUEUE, BoundBy.DATA),
                    chain.stream().map(ChainLink::boundBy).toList());
            assertEquals(List.of(10 * MS, 6 * MS, 2 * MS), chain.stream().map(l -> l.startNs() - t0).toList());
        }
    }
}
