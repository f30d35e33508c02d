package io.overlapanalyze.crossrank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.MatchedCollective;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.PeerBoundTail;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Straggler;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Durations;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.Scenario;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * metrics.md §8 honesty rules and §12 rule 2, on generated jobs whose ground truth is how they were
 * built (see {@link Job}: a collective ends on every rank at the latest arrival plus its transfer
 * time; the slow rank starts every step late by its delay). seed-1ms: three 2 ms backward blocks,
 * a 1 ms all-reduce after each, never queue-bound, so every bucket of a fast rank waits exactly the
 * slow rank's delay, and only the last bucket of a step is exposed (§7).
 */
class CrossRankHonestyTest {
    private static final long US = 1000;
    private static final long MS = 1_000_000;
    private static final int RANKS = 8;
    private static final int SLOW = 5;
    private static final long DELAY = 800 * US;
    private static final int BUCKETS = 3;
    private static final String GROUP = "0 (default_pg)";

    @TempDir
    Path dir;

    private static Job straggler(int steps) {
        return Job.healthy("straggler", RANKS, BuiltinScenarios.get("seed-1ms").withSteps(steps))
                .withSlowRank(SLOW, DELAY);
    }

    private static long index(int step, int bucket) {
        return (long) (step - 1) * BUCKETS + (bucket - 1);
    }

    /**
     * The job: rank 3 never issues bucket 1 of step 3, rank 5 is 0.8 ms late every step. By
     * order, rank 3's later collectives are shifted by one: pairing must stop at step 3 (the first
     * step whose counts differ), so rank 5 is found from steps 1 and 2 alone, and rank 3 is never
     * called late.
     */
    @Test
    void aSkipStopsPairingAndTheLateRankIsStillTheStraggler() throws Exception {
        int steps = 4;
        Job job = straggler(steps).withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 3, 3, 1, null));
        CrossRankReport r = JobFixture.analyze(job, dir);

        Mismatch missing = r.mismatches().stream().filter(m -> m.kind() == Mismatch.MismatchKind.MISSING)
                .findFirst().orElseThrow(() -> new AssertionError(r.mismatches().toString()));
        assertEquals(List.of(3), missing.culprits());
        assertTrue(missing.message().contains("the counts first differ in ProfilerStep#3 (rank 3 issued fewer"),
                missing.message());

        GroupSummary g = r.groups().get(0);
        assertEquals(GROUP, g.group());
        assertEquals(index(3, 1), g.leftOutFrom(), "pairing stops at the first collective of step 3");
        assertEquals(2 * BUCKETS, g.matched(), "steps 1 and 2 only");
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("pairing stops at index " + index(3, 1))
                && n.contains("rank 3 issued fewer") && n.contains("ProfilerStep#3")), r.notes().toString());

        // Only the paired collectives carry timing; every one names rank 5 last, with the delay as every wait.
        assertEquals(2 * BUCKETS, r.collectives().size());
        for (MatchedCollective c : r.collectives()) {
            assertTrue(c.index() < index(3, 1), c.toString());
            assertEquals(SLOW, c.lastRank(), c.toString());
            for (int rank = 0; rank < RANKS; rank++) {
                assertEquals(rank == SLOW ? 0 : DELAY, c.waitsNs().get(rank), US, "rank " + rank + " in " + c);
            }
        }
        Straggler top = r.stragglers().get(0);
        assertEquals(SLOW, top.rank());
        assertEquals(2 * BUCKETS, top.timesArrivedLast());
        assertEquals(2 * BUCKETS * DELAY, top.waitedForNs(), US);
        assertEquals(0, JobFixture.straggler(r, 3).timesArrivedLast(), "rank 3 is not late: its sequence shifted");
        assertEquals(0, r.skew().implausibleWaits());

        // No rank is told it waited for rank 3; the ranks told anything are told rank 5, in steps 1 and 2 only.
        for (PeerBoundTail t : r.peerBoundTails()) {
            assertEquals(SLOW, t.lateRank(), t.toString());
            assertTrue(List.of("ProfilerStep#1", "ProfilerStep#2").contains(t.step()), t.toString());
        }
        for (int rank = 0; rank < RANKS; rank++) {
            assertEquals(rank == SLOW ? 0 : 2, r.peerBoundTails(rank).size(), "rank " + rank);
        }
    }

    /**
     * Without the skip: every other rank's last bucket runs 1.8 ms, 0.8 ms of it waiting for rank 5
     * (a quarter or more of it), so every other rank's tail names rank 5; rank 5's own tail is its
     * 1 ms transfer. The exposed communication of a step (the last bucket alone) splits into 0.8 ms
     * waiting and 1 ms transfer on the others, 0 and 1 ms on rank 5; 0.8 of 1.8 ms is not most of the
     * chain, so the tail cause stays LAST_BUCKET.
     */
    @Test
    void everyOtherRankNamesTheLateRankAndItsStepsSplitWaitingFromTransfer() throws Exception {
        int steps = 3;
        List<RankInput> inputs = JobFixture.read(straggler(steps), dir);
        var result = AnalysisPipeline.assemble(inputs, List.of(), RANKS, true, List.of());
        CrossRankReport r = result.report().crossRank();

        assertEquals(SLOW, r.stragglers().get(0).rank());
        for (int rank = 0; rank < RANKS; rank++) {
            List<PeerBoundTail> tails = r.peerBoundTails(rank);
            if (rank == SLOW) {
                assertTrue(tails.isEmpty(), tails.toString());
                continue;
            }
            assertEquals(steps, tails.size(), "rank " + rank + ": " + tails);
            for (PeerBoundTail t : tails) {
                assertEquals(SLOW, t.lateRank());
                assertEquals(DELAY, t.waitNs(), US);
                assertEquals(MS + DELAY, t.durationNs(), US);
            }
        }
        for (RankReport rank : result.report().ranks()) {
            for (StepReport s : rank.steps()) {
                CommSplit split = s.commSplit();
                assertEquals(CommSplit.CROSS_RANK, split.source(), "rank " + rank.rank() + " " + s.name());
                long wait = rank.rank() == SLOW ? 0 : DELAY;
                assertEquals(MS + wait, s.exposedCommNs(), US);
                assertEquals(wait, split.waitNs(), US, "rank " + rank.rank() + " " + s.name());
                assertEquals(s.exposedCommNs(), split.waitNs() + split.transferNs());
                assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
            }
        }
    }

    /**
     * Three 10 ms blocks with a 1 ms all-reduce after each, rank 1 three ms late: rank 0's last
     * all-reduce runs [30, 34] ms, 3 ms of it waiting. Its tail chain (that collective alone, bound by
     * DATA) mostly waited: the cause is WAIT, not LAST_BUCKET; its step's exposed communication (the
     * last bucket; the others hide under 10 ms of compute) is 3 ms waiting and 1 ms transfer.
     */
    @Test
    void aTailThatMostlyWaitedIsWaitWithTheCrossRankSplit() throws Exception {
        Scenario gaps = Scenario.of("gaps", "three 10 ms blocks", List.of(), List.of(
                Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000)),
                Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000)),
                Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000))), Durations.us(0)).withSteps(2);
        List<RankInput> inputs = JobFixture.read(Job.healthy("late-peer", 2, gaps).withSlowRank(1, 3 * MS), dir);
        assertEquals(TailKind.LAST_BUCKET, inputs.get(0).report().steps().get(0).attribution().kind(),
                "one rank alone cannot tell");
        var result = AnalysisPipeline.assemble(inputs, List.of(), 2, true, List.of());
        RankReport rank0 = result.report().ranks().get(0);
        RankReport rank1 = result.report().ranks().get(1);
        for (StepReport s : rank0.steps()) {
            assertEquals(TailKind.WAIT, s.attribution().kind(), s.name());
            assertEquals(new CommSplit(3 * MS, MS, CommSplit.CROSS_RANK), s.commSplit(), s.name());
        }
        for (StepReport s : rank1.steps()) {
            assertEquals(TailKind.LAST_BUCKET, s.attribution().kind(), s.name());
            assertEquals(new CommSplit(0L, MS, CommSplit.CROSS_RANK), s.commSplit(), s.name());
        }
        // The job's worst tail per step names the cause the rank reports give.
        result.report().crossRank().worstTails().forEach(t -> {
            assertEquals(0, t.worstRank(), t.toString());
            assertEquals("WAIT", t.kind(), t.toString());
        });
    }

    /**
     * Two ranks, one step of two buckets (two collectives: too few to align clocks, so each rank's
     * own clock is used) and rank 1's clock 50 ms ahead: rank 0's raw wait would be about 50 ms
     * inside a 1 ms collective. That is counted as implausible, never reported as a wait; no rank is
     * called late from it and no step gets a cross-rank split.
     */
    @Test
    void aWaitLongerThanItsCollectiveIsCountedNotReported() throws Exception {
        Scenario two = Scenario.of("two", "two 2 ms blocks", List.of(), List.of(
                Scenario.Block.us(2_000, Scenario.Bucket.of(26_214_400, 1000)),
                Scenario.Block.us(2_000, Scenario.Bucket.of(26_214_400, 1000))), Durations.us(0)).withSteps(1);
        Job job = Job.healthy("skewed-clock", 2, two).withClockOffsetsNs(List.of(0L, 50 * MS));
        List<RankInput> inputs = JobFixture.read(job, dir);
        var result = AnalysisPipeline.assemble(inputs, List.of(), 2, true, List.of());
        CrossRankReport r = result.report().crossRank();
        assertFalse(r.clock().aligned());
        assertEquals(2, r.skew().implausibleWaits(), "rank 0's raw wait in each of the two collectives");
        assertEquals(2, r.collectives().size());
        for (MatchedCollective c : r.collectives()) {
            assertNull(c.waitsNs(), c.toString());
            assertNull(c.lastRank(), c.toString());
            assertNull(c.arrivalSkewNs(), c.toString());
            assertNotNull(c.transferNs(), "the transfer needs no common clock");
        }
        assertNull(r.skew().medianSkewNs());
        for (Straggler s : r.stragglers()) {
            assertEquals(0, s.timesArrivedLast());
            assertEquals(0, s.totalWaitNs());
        }
        assertTrue(r.peerBoundTails().isEmpty());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("exceeded the rank's own collective")), r.notes().toString());
        for (RankReport rank : result.report().ranks()) {
            for (StepReport s : rank.steps()) {
                assertFalse(CommSplit.CROSS_RANK.equals(s.commSplit().source()), s.name());
            }
        }
    }

    /**
     * Two of a 4-rank job read (the group names 4 ranks): the last arrival may be a rank not read, so
     * the waits among the two are lower bounds and the rest is not known to be transfer: no step gets
     * a cross-rank split, though the waits between the ranks read are still reported.
     */
    @Test
    void noCrossRankSplitWhenTheGroupHasRanksNotRead() throws Exception {
        Job job = Job.healthy("half", 4, BuiltinScenarios.get("seed-1ms").withSteps(3)).withSlowRank(1, DELAY);
        List<RankInput> two = JobFixture.read(job, dir).subList(0, 2);
        var result = AnalysisPipeline.assemble(two, List.of(), 2, true, List.of());
        assertEquals(1, result.report().crossRank().stragglers().get(0).rank(), "waits among the ranks read");
        assertTrue(result.stepWaits().ranks().isEmpty(), result.stepWaits().toString());
        for (RankReport rank : result.report().ranks()) {
            for (StepReport s : rank.steps()) {
                assertFalse(CommSplit.CROSS_RANK.equals(s.commSplit().source()), rank.rank() + " " + s.name());
            }
        }
    }

    /** A late rank but no divergence: no position is left out and no wait is implausible. (The rough-clock
     * rule is checked end to end on the real 128-rank pair in the CLI tests.) */
    @Test
    void aHealthyJobLeavesNothingOutAndHasNoImplausibleWait() throws Exception {
        CrossRankReport r = JobFixture.analyze(straggler(2), dir);
        assertNull(r.groups().get(0).leftOutFrom());
        assertEquals(0, r.skew().implausibleWaits());
        assertTrue(r.mismatches().isEmpty());
    }
}
