package io.overlapanalyze.synth;

import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;

import java.util.List;

/**
 * The ground truth of a generated job: one {@link SyntheticTimeline} per rank, in true time
 * (the relative times are on one shared clock); each rank's {@code baseTimeNanoseconds} carries
 * its clock offset, so the trace of rank r reads {@code base + offset_r + t}.
 *
 * @param ranks per-rank timelines, index = rank; skipped collectives are not in them
 */
public record JobTimeline(Job job, List<SyntheticTimeline> ranks) {
    public JobTimeline {
        ranks = List.copyOf(ranks);
    }

    /** The planned reduction of rank {@code r} at 1-based {@code bucket} of step {@code stepNumber}, or null. */
    public PlannedReduction reduction(int r, int stepNumber, int bucket) {
        for (PlannedStep s : ranks.get(r).steps()) {
            if (s.number() == stepNumber) {
                for (PlannedReduction red : s.reductions()) {
                    if (red.bucket() == bucket) {
                        return red;
                    }
                }
            }
        }
        return null;
    }
}
