package io.overlapanalyze.synth;

import io.overlapanalyze.synth.Job.Perturbation;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans a {@link Job}: every rank's timeline with synchronous collectives (see {@link Job}).
 *
 * <p>A collective's end on every rank is {@code max over ranks (arrival + transfer)}, and later
 * arrivals depend on earlier ends (the comm stream is busy, the next step starts later). The
 * planner finds that fixed point by iteration: plan every rank with the ends found so far as lower
 * bounds, take the maximum nominal end of each slot, repeat until nothing changes. Ends only grow
 * and each round settles at least the earliest unsettled collective, so it stops after at most
 * one round per collective (a handful in practice).
 */
final class JobPlanner {
    private static final int MAX_ROUNDS = 100_000;

    private JobPlanner() {
    }

    /** Slot key: step number and 1-based bucket. */
    private static long key(int step, int bucket) {
        return ((long) step << 20) | bucket;
    }

    static JobTimeline plan(Job job) {
        Map<Long, Long> syncEnd = new HashMap<>();
        List<SyntheticTimeline> raw = null;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Map<Long, Long> nominal = new HashMap<>();
            raw = new ArrayList<>(job.ranks());
            for (int r = 0; r < job.ranks(); r++) {
                raw.add(TimelinePlanner.plan(job.rankScenario(r), hooks(job, r, syncEnd, nominal)));
            }
            if (nominal.equals(syncEnd)) {
                break;
            }
            if (round == MAX_ROUNDS - 1) {
                throw new IllegalStateException("job timeline did not settle");
            }
            syncEnd = nominal;
        }
        List<SyntheticTimeline> out = new ArrayList<>(job.ranks());
        for (int r = 0; r < job.ranks(); r++) {
            out.add(finish(job, r, raw.get(r)));
        }
        return new JobTimeline(job, out);
    }

    private static PlanHooks hooks(Job job, int rank, Map<Long, Long> syncEnd, Map<Long, Long> nominal) {
        return new PlanHooks() {
            @Override
            public long stepDelayNs(int stepNumber) {
                return rank == job.slowRank() ? job.slowDelayNs() : 0;
            }

            @Override
            public long commEnd(int stepNumber, int bucket, long start, long nominalEnd) {
                long k = key(stepNumber, bucket);
                nominal.merge(k, nominalEnd, Math::max);
                Long sync = syncEnd.get(k);
                return sync == null ? nominalEnd : Math.max(nominalEnd, sync);
            }
        };
    }

    /** Applies the clock offset (header base) and removes skipped collectives. */
    private static SyntheticTimeline finish(Job job, int rank, SyntheticTimeline t) {
        List<PlannedStep> steps = new ArrayList<>();
        for (PlannedStep s : t.steps()) {
            List<PlannedReduction> kept = new ArrayList<>();
            for (PlannedReduction red : s.reductions()) {
                if (find(job, rank, s.number(), red.bucket(), Perturbation.Kind.SKIP) == null) {
                    kept.add(red);
                }
            }
            steps.add(new PlannedStep(s.number(), s.hostStart(), s.hostEnd(), s.deviceStart(), s.deviceEnd(),
                    s.compute(), kept, s.annotations(), s.mainOps(), s.autogradOps()));
        }
        return new SyntheticTimeline(t.scenario(), t.baseTimeNanoseconds() + job.clockOffsetsNs().get(rank), steps);
    }

    static Perturbation find(Job job, int rank, int step, int bucket, Perturbation.Kind kind) {
        for (Perturbation p : job.perturbations()) {
            if (p.kind() == kind && p.rank() == rank && p.step() == step && p.bucket() == bucket) {
                return p;
            }
        }
        return null;
    }

    /**
     * What rank {@code rank} writes for each slot of its (skip-filtered) timeline: the bucket's
     * type and sizes, swapped for a reorder, then size/dtype/type perturbations, then Seq in
     * issue order.
     */
    static CollectiveSpec.Source specs(Job job, int rank, SyntheticTimeline timeline) {
        List<Long> bucketBytes = new ArrayList<>();
        for (Scenario.Block b : job.scenario().backward()) {
            if (b.bucket() != null) {
                bucketBytes.add(b.bucket().bytes());
            }
        }
        Map<Long, CollectiveSpec> bySlot = new HashMap<>();
        long seq = 0;
        for (PlannedStep s : timeline.steps()) {
            for (PlannedReduction red : s.reductions()) {
                int slot = red.bucket();
                int logical = slot;
                if (find(job, rank, s.number(), slot, Perturbation.Kind.REORDER) != null) {
                    logical = slot + 1;
                } else if (slot > 1 && find(job, rank, s.number(), slot - 1, Perturbation.Kind.REORDER) != null) {
                    logical = slot - 1;
                }
                String type = job.bucketTypes().isEmpty() ? "allreduce" : job.bucketTypes().get(logical - 1);
                Perturbation t = find(job, rank, s.number(), slot, Perturbation.Kind.TYPE);
                if (t != null) {
                    type = t.value() == null ? "broadcast" : t.value();
                }
                long elements = bucketBytes.get(logical - 1) / 4;
                CollectiveSpec spec = CollectiveSpec.of(type, elements, job.ranks());
                Perturbation size = find(job, rank, s.number(), slot, Perturbation.Kind.SIZE);
                if (size != null) {
                    long n = size.value() == null ? 2 * elements : Long.parseLong(size.value());
                    spec = CollectiveSpec.of(type, n, job.ranks());
                }
                Perturbation dtype = find(job, rank, s.number(), slot, Perturbation.Kind.DTYPE);
                if (dtype != null) {
                    spec = spec.withDtype(dtype.value() == null ? "BFloat16" : dtype.value());
                }
                if (job.sequenceNumbers()) {
                    spec = spec.withSeq(seq++);
                }
                bySlot.put(key(s.number(), slot), spec);
            }
        }
        return (scenario, stepNumber, red) -> bySlot.get(key(stepNumber, red.bucket()));
    }
}
