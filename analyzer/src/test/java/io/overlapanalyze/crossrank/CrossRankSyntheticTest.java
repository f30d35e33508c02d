package io.overlapanalyze.crossrank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.report.BandwidthByType;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.Straggler;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobTimeline;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 1: expected values come from how the job was built (offsets, delay, perturbation
 * positions) and from its plan, never from the analysis.
 */
class CrossRankSyntheticTest {
    private static final long US = 1000;
    private static final int STEPS = 3;
    private static final int BUCKETS = 3; // seed-1ms
    private static final String GROUP = "0 (default_pg)"; // the synth's pg_config: name "0", desc default_pg

    @TempDir
    Path dir;

    private static Job seedJob() {
        return Job.healthy("job", 4, BuiltinScenarios.get("seed-1ms").withSteps(STEPS));
    }

    /** Position of bucket b (1-based) of step s (1-based, firstStep 1) in the group's issue order. */
    private static long index(int step, int bucket) {
        return (long) (step - 1) * BUCKETS + (bucket - 1);
    }

    @Test
    void healthyJobReportsNoMismatchNoWaitAndTheDefaultGroup() throws Exception {
        CrossRankReport r = JobFixture.analyze(seedJob(), dir);
        assertEquals(List.of(0, 1, 2, 3), r.ranks());
        assertTrue(r.mismatches().isEmpty(), r.mismatches().toString());
        assertTrue(r.inputProblems().isEmpty());
        assertEquals(1, r.groups().size());
        assertEquals(GROUP, r.groups().get(0).group());
        assertFalse(r.groups().get(0).inferred());
        assertEquals(STEPS * BUCKETS, r.groups().get(0).matched());
        for (Straggler s : r.stragglers()) {
            assertEquals(0, s.totalWaitNs());
            assertEquals(0, s.timesArrivedLast());
        }
        assertEquals(STEPS * BUCKETS, r.collectives().size());
    }

    @Test
    void knownClockOffsetsAreRecoveredWithinOneMicrosecond() throws Exception {
        // Zero-mean offsets: the contract's offset (own clock minus the mean clock) is then the offset itself.
        List<Long> offsets = List.of(0L, 37 * US, -120 * US, 83 * US);
        CrossRankReport r = JobFixture.analyze(seedJob().withClockOffsetsNs(offsets), dir);
        assertTrue(r.clock().aligned());
        assertEquals(STEPS * BUCKETS, r.clock().collectivesUsed());
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(offsets.get(rank), r.clockOffsetsNs().get(rank), US, "rank " + rank);
        }
        // Offsets do not look like waiting: every collective of a healthy job ends together.
        for (Straggler s : r.stragglers()) {
            assertEquals(0, s.totalWaitNs(), US);
        }
        assertTrue(r.mismatches().isEmpty());
    }

    @Test
    void offsetsWithANonZeroMeanAreRecoveredRelativeToEachOther() throws Exception {
        List<Long> offsets = List.of(37 * US, -120 * US, 0L, 0L);
        CrossRankReport r = JobFixture.analyze(seedJob().withClockOffsetsNs(offsets), dir);
        long mean = (37 - 120) * US / 4;
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(offsets.get(rank) - mean, r.clockOffsetsNs().get(rank), US, "rank " + rank);
            assertEquals(offsets.get(rank) - offsets.get(0),
                    r.clockOffsetsNs().get(rank) - r.clockOffsetsNs().get(0), US);
        }
    }

    @Test
    void aDelayedRankIsTheStragglerWithTheWaitItCaused() throws Exception {
        long delay = 250 * US;
        int slow = 2;
        Job job = seedJob().withSlowRank(slow, delay).withClockOffsetsNs(List.of(0L, 37 * US, -120 * US, 83 * US));
        CrossRankReport r = JobFixture.analyze(job, dir);

        // Expected from the plan (true time): wait_r = latest arrival - own arrival, per collective.
        JobTimeline plan = JobWriter.plan(job);
        Map<Integer, Long> expectedWait = new HashMap<>();
        long expectedWaitedFor = 0;
        for (PlannedStep step : plan.ranks().get(0).steps()) {
            for (PlannedReduction red : step.reductions()) {
                long latest = Long.MIN_VALUE;
                long latestOther = Long.MIN_VALUE;
                for (int rank = 0; rank < 4; rank++) {
                    long a = plan.reduction(rank, step.number(), red.bucket()).start();
                    latest = Math.max(latest, a);
                    if (rank != slow) {
                        latestOther = Math.max(latestOther, a);
                    }
                }
                for (int rank = 0; rank < 4; rank++) {
                    expectedWait.merge(rank, latest - plan.reduction(rank, step.number(), red.bucket()).start(),
                            Long::sum);
                }
                expectedWaitedFor += latest - latestOther;
            }
        }
        // seed-1ms is never queue-bound, so the plan's answer is the delay on every collective.
        assertEquals(STEPS * BUCKETS * delay, expectedWaitedFor);

        Straggler top = r.stragglers().get(0);
        assertEquals(slow, top.rank(), "most waited-for rank first");
        assertEquals(STEPS * BUCKETS, top.timesArrivedLast());
        assertEquals(expectedWaitedFor, top.waitedForNs(), US);
        for (int rank = 0; rank < 4; rank++) {
            assertEquals(expectedWait.get(rank), JobFixture.straggler(r, rank).totalWaitNs(), US, "rank " + rank);
        }
        // Exposed split (seed-1ms, metrics.md §7: only the last bucket of a step is exposed, 1 ms): on a fast
        // rank the last bucket also waits `delay` for the slow rank with no compute left to hide it.
        Straggler fast = JobFixture.straggler(r, 0);
        assertEquals(STEPS * (1000 * US + delay), fast.exposedCommNs(), US);
        assertEquals(STEPS * delay, fast.exposedWaitNs(), US);
        assertEquals(0, JobFixture.straggler(r, slow).exposedWaitNs(), US);
        assertTrue(r.mismatches().isEmpty());
        assertNotNull(r.skew().maxSkewNs());
        assertEquals(delay, r.skew().maxSkewNs(), US);
        assertEquals(slow, r.skew().worstLastRank());
    }

    private Mismatch only(CrossRankReport r) {
        assertEquals(1, r.mismatches().size(), r.mismatches().toString());
        return r.mismatches().get(0);
    }

    @Test
    void typeMismatchAtItsPosition() throws Exception {
        Job job = seedJob().withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.TYPE, 1, 2, 1, null));
        Mismatch m = only(JobFixture.analyze(job, dir));
        assertEquals(Mismatch.MismatchKind.TYPE, m.kind());
        assertEquals(GROUP, m.group());
        assertEquals(index(2, 1), m.index());
        assertEquals(Mismatch.Severity.ERROR, m.severity(), "group metadata exists");
        assertEquals(List.of(1), m.culprits());
        assertEquals("BROADCAST", m.ranks().get(1).type());
        assertEquals("ALL_REDUCE", m.ranks().get(0).type());
        assertEquals("ProfilerStep#2", m.step());
    }

    @Test
    void reorderedBucketsOfDifferentTypesAreATypeMismatch() throws Exception {
        Job job = seedJob().withBucketTypes(List.of("allreduce", "reducescatter", "allreduce"))
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.REORDER, 3, 2, 2, null));
        CrossRankReport r = JobFixture.analyze(job, dir);
        Mismatch m = r.mismatches().get(0);
        assertEquals(Mismatch.MismatchKind.TYPE, m.kind());
        assertEquals(index(2, 2), m.index());
        assertEquals(List.of(3), m.culprits());
        assertEquals(1, m.following(), "the swapped partner position differs too");
        // Timing stops at the first type mismatch when group metadata exists.
        assertEquals(index(2, 2), r.groups().get(0).matched());
    }

    @Test
    void sizeMismatchAtItsPosition() throws Exception {
        Job job = seedJob().withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SIZE, 3, 1, 2, null));
        Mismatch m = only(JobFixture.analyze(job, dir));
        assertEquals(Mismatch.MismatchKind.SIZE, m.kind());
        assertEquals(index(1, 2), m.index());
        assertEquals(List.of(3), m.culprits());
        long elements = BuiltinScenarios.BUCKET_BYTES / 4;
        assertEquals(2 * elements, m.ranks().get(3).inElements());
        assertEquals(elements, m.ranks().get(0).inElements());
    }

    @Test
    void dtypeMismatchAtItsPosition() throws Exception {
        Job job = seedJob().withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.DTYPE, 0, 3, 3, "Half"));
        Mismatch m = only(JobFixture.analyze(job, dir));
        assertEquals(Mismatch.MismatchKind.DTYPE, m.kind());
        assertEquals(index(3, 3), m.index());
        assertEquals(List.of(0), m.culprits());
        assertEquals("Half", m.ranks().get(0).dtype());
    }

    @Test
    void aSkippedLastCollectiveIsALikelyHang() throws Exception {
        Job job = seedJob().withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 2, 3, 3, null));
        Mismatch m = only(JobFixture.analyze(job, dir));
        assertEquals(Mismatch.MismatchKind.MISSING, m.kind());
        assertEquals(index(3, 3), m.index());
        assertEquals(List.of(2), m.culprits());
        assertFalse(m.ranks().get(2).present());
        int total = STEPS * BUCKETS;
        assertTrue(m.message().contains("rank 2 stops after " + (total - 1) + " of " + total + " on group " + GROUP),
                m.message());
        assertTrue(m.message().contains("likely hang"), m.message());
    }

    @Test
    void sequenceNumbersAreUsedWhenEveryCollectiveHasOne() throws Exception {
        Job job = seedJob().withSequenceNumbers(true)
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.DTYPE, 1, 2, 3, null));
        CrossRankReport r = JobFixture.analyze(job, dir);
        assertEquals("SEQUENCE", r.groups().get(0).matchedBy());
        Mismatch m = only(r);
        assertEquals(Mismatch.MismatchKind.DTYPE, m.kind());
        assertEquals(index(2, 3), m.index(), "Seq counts from 0 in issue order in the synthetic job");
    }

    @Test
    void busBandwidthFollowsNcclTests() throws Exception {
        CrossRankReport r = JobFixture.analyze(seedJob(), dir);
        BandwidthByType ar = r.bandwidth().get(0);
        assertEquals("ALL_REDUCE", ar.type());
        assertEquals(STEPS * BUCKETS, ar.withSize());
        // 25 MiB in 1 ms = 26.2144 GB/s; all_reduce bus factor 2(n-1)/n = 1.5 for n = 4.
        double alg = BuiltinScenarios.BUCKET_BYTES / 1_000_000.0;
        assertEquals(alg, ar.algBwGBps(), 1e-9);
        assertEquals(alg * 1.5, ar.busBwGBps(), 1e-9);
        assertEquals(alg * 1.5, r.collectives().get(0).busBwGBps(), 1e-9);
    }

    @Test
    void waitingDoesNotCountAsTransferForBandwidth() throws Exception {
        // Transfer = min duration over ranks: the slow rank waits for nobody, so bandwidth is unchanged.
        CrossRankReport r = JobFixture.analyze(seedJob().withSlowRank(1, 300 * US), dir);
        assertEquals(BuiltinScenarios.BUCKET_BYTES / 1_000_000.0, r.bandwidth().get(0).algBwGBps(), 1e-9);
    }
}
