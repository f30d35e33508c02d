package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.overlapanalyze.analysis.TraceBuilder.AUTOGRAD;
import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * metrics.md §12 on one rank (rules 1, 3, 4) and §6 WAIT, on traces built by hand (a Kineto-like
 * rank: no profiler split). Each step k (10 ms apart): one 2 ms backward block [0, 2] ms, then one
 * 25 MiB all-reduce from 2 ms, issued on time, of the length the test sets. Its exposed
 * communication is the whole all-reduce (nothing computes after 2 ms).
 */
class CommSplitAnalysisTest {
    private static final long BYTES = 25L << 20;

    /** Steps with one all-reduce each, of {@code commUs[k]} µs. */
    private static RankTrace steps(long... commUs) {
        return steps(null, commUs);
    }

    /** The same, with the profiler's transfer of each all-reduce ({@code null}: none). */
    private static RankTrace steps(long[] profilerTransferUs, long... commUs) {
        TraceBuilder b = new TraceBuilder();
        int computeLane = b.lane("stream 7");
        int commLane = b.lane("stream 13");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        for (int k = 0; k < commUs.length; k++) {
            long o = ORIGIN + k * 10 * MS;
            b.span(HostSpanKind.STEP, "ProfilerStep#" + (k + 1), o - 5 * MS, o + 5 * MS, MAIN);
            long launch = o - 3 * MS;
            b.compute(o, o + 2 * MS, computeLane, launch, AUTOGRAD);
            b.collective(CollectiveType.ALL_REDUCE, BYTES, launch + 100 * US, AUTOGRAD, o + 2 * MS,
                    o + 2 * MS + commUs[k] * US, commLane, launch + 110 * US);
        }
        RankTrace t = b.build();
        if (profilerTransferUs == null) {
            return t;
        }
        List<Collective> withSplit = new ArrayList<>();
        for (Collective c : t.collectives()) {
            long transfer = profilerTransferUs[c.id()] * US;
            withSplit.add(c.withProfilerSplit(transfer, commUs[c.id()] * US - transfer, 8));
        }
        return t.withCollectives(withSplit);
    }

    @Test
    void threeInstancesOneSlowTheShortestIsTheTransfer() {
        RankReport r = RankAnalyzer.analyze(steps(1000, 1000, 3000));
        assertEquals(3, r.steps().size());
        // Steps 1 and 2: the shortest instance itself, nothing waited.
        for (int k = 0; k < 2; k++) {
            StepReport s = r.steps().get(k);
            assertEquals(1 * MS, s.exposedCommNs());
            assertEquals(new CommSplit(0L, 1 * MS, CommSplit.ESTIMATED), s.commSplit());
            assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
        }
        // Step 3: 3 ms, of which the 1 ms shortest transfer at its end, 2 ms waiting at its start;
        // its tail (gL alone, bound by DATA) mostly waited: WAIT, not "a smaller last bucket".
        StepReport slow = r.steps().get(2);
        assertEquals(3 * MS, slow.exposedCommNs());
        assertEquals(new CommSplit(2 * MS, 1 * MS, CommSplit.ESTIMATED), slow.commSplit());
        assertEquals(TailKind.WAIT, slow.attribution().kind());
    }

    @Test
    void fewerThanThreeInstancesIsUnknownNeverZero() {
        RankReport r = RankAnalyzer.analyze(steps(1000, 3000));
        for (StepReport s : r.steps()) {
            assertEquals(CommSplit.unknown(), s.commSplit());
            assertNull(s.commSplit().waitNs());
            // No evidence at all is the common case: no note (one is for mixed evidence, below).
            assertTrue(s.notes().stream().noneMatch(n -> n.contains(CommSplitAnalysis.NOTE_NO_EVIDENCE)),
                    s.notes().toString());
        }
        assertEquals(TailKind.LAST_BUCKET, r.steps().get(1).attribution().kind(), "no evidence: no WAIT");
    }

    @Test
    void theProfilerSplitComesFirst() {
        // Two steps only (rule 3 could not apply), but the profiler says: 0.25 ms and 2.5 ms transfer.
        RankReport r = RankAnalyzer.analyze(steps(new long[] {250, 2500}, 1000, 3000));
        assertEquals(new CommSplit(750 * US, 250 * US, CommSplit.PROFILER), r.steps().get(0).commSplit());
        assertEquals(TailKind.WAIT, r.steps().get(0).attribution().kind(), "0.75 of 1 ms waited");
        assertEquals(new CommSplit(500 * US, 2500 * US, CommSplit.PROFILER), r.steps().get(1).commSplit());
        assertEquals(TailKind.LAST_BUCKET, r.steps().get(1).attribution().kind(), "0.5 of 3 ms waited");
    }

    /**
     * Only exposed time is split: compute until 2.5 ms hides the first 0.5 ms of a [2, 5] ms
     * all-reduce whose first 2 ms waited. Exposed [2.5, 5]: waiting [2.5, 4] = 1.5 ms, transfer
     * [4, 5] = 1 ms.
     */
    @Test
    void theWaitingStretchLiesAtTheStartAndOnlyExposedTimeCounts() {
        TraceBuilder b = new TraceBuilder();
        int computeLane = b.lane("stream 7");
        int commLane = b.lane("stream 13");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - 5 * MS, ORIGIN + 9 * MS, MAIN);
        b.compute(ORIGIN, ORIGIN + 2500 * US, computeLane, ORIGIN - 3 * MS, AUTOGRAD);
        b.collective(CollectiveType.ALL_REDUCE, BYTES, ORIGIN - 2 * MS, AUTOGRAD, ORIGIN + 2 * MS, ORIGIN + 5 * MS,
                commLane, ORIGIN - 2 * MS + 10 * US);
        RankTrace t = b.build();
        Collective c = t.collectives().get(0).withProfilerSplit(1 * MS, 2 * MS, -1);
        StepReport s = RankAnalyzer.analyze(t.withCollectives(List.of(c))).steps().get(0);
        assertEquals(2500 * US, s.exposedCommNs());
        assertEquals(new CommSplit(1500 * US, 1 * MS, CommSplit.PROFILER), s.commSplit());
    }

    /**
     * Mixed evidence: three 1 ms all-reduces (estimated: nothing waited) and, in the last step, a
     * broadcast of another size right after it, exposed, with no evidence: the step's split is
     * unknown, with a note saying how much exposed time had none.
     */
    @Test
    void exposedTimeWithoutEvidenceMakesTheStepUnknownWithANote() {
        TraceBuilder b = new TraceBuilder();
        int computeLane = b.lane("stream 7");
        int commLane = b.lane("stream 13");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        for (int k = 0; k < 3; k++) {
            long o = ORIGIN + k * 10 * MS;
            b.span(HostSpanKind.STEP, "ProfilerStep#" + (k + 1), o - 5 * MS, o + 5 * MS, MAIN);
            long launch = o - 3 * MS;
            b.compute(o, o + 2 * MS, computeLane, launch, AUTOGRAD);
            b.collective(CollectiveType.ALL_REDUCE, BYTES, launch + 100 * US, AUTOGRAD, o + 2 * MS, o + 3 * MS,
                    commLane, launch + 110 * US);
            if (k == 2) {
                b.collective(CollectiveType.BROADCAST, 4096, launch + 200 * US, AUTOGRAD, o + 3 * MS, o + 3500 * US,
                        commLane, launch + 210 * US);
            }
        }
        RankReport r = RankAnalyzer.analyze(b.build());
        assertEquals(new CommSplit(0L, 1 * MS, CommSplit.ESTIMATED), r.steps().get(0).commSplit());
        StepReport mixed = r.steps().get(2);
        assertEquals(1500 * US, mixed.exposedCommNs());
        assertEquals(CommSplit.unknown(), mixed.commSplit());
        assertTrue(mixed.notes().contains("0.500" + CommSplitAnalysis.NOTE_NO_EVIDENCE
                + ": transfer and waiting unknown in this step"), mixed.notes().toString());
    }

    /** The world of the hand-built trace has 2 ranks (TraceBuilder): a rank that waited is told so. */
    @Test
    void theGroupNoteSaysTheWaitingMayBeForRanksOutsideTheInput() {
        RankTrace trace = steps(1000, 1000, 3000);
        RankReport withNote = CommSplitAnalysis.withGroupNote(trace, RankAnalyzer.analyze(trace));
        assertTrue(withNote.notes().contains("this rank's collectives ran in a group of 2 ranks (as the capture says):"
                + " unless all 2 are in the input, the waiting in the transfer / waiting split may be for ranks outside"
                + " the input"), withNote.notes().toString());
        RankTrace noWait = steps(1000, 1000, 1000);
        assertEquals(List.of(), CommSplitAnalysis.withGroupNote(noWait, RankAnalyzer.analyze(noWait)).notes().stream()
                .filter(n -> n.contains("group of")).toList(), "nothing waited: no note");
    }

    @Test
    void mostlyWaitingIsMoreThanHalfAndUnknownCountsAsNotWaiting() {
        CommSplitAnalysis.Waits waits = new CommSplitAnalysis.Waits() {
            @Override
            public long waitNs(int id) {
                return id == 0 ? 3 : io.overlapanalyze.model.Time.UNKNOWN;
            }

            @Override
            public String source(int id) {
                return id == 0 ? CommSplit.PROFILER : null;
            }
        };
        assertTrue(CommSplitAnalysis.mostlyWaiting(new int[] {0}, new long[] {5}, waits));
        assertFalse(CommSplitAnalysis.mostlyWaiting(new int[] {0}, new long[] {6}, waits), "exactly half is not most");
        assertFalse(CommSplitAnalysis.mostlyWaiting(new int[] {0, 1}, new long[] {5, 5}, waits));
    }
}
