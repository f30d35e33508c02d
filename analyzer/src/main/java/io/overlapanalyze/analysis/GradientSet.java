package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.report.Phase;

import java.util.ArrayList;
import java.util.List;

/**
 * The gradient set G of a step (metrics.md §3): the ALL_REDUCE / REDUCE_SCATTER / REDUCE
 * collectives enqueued during BACKWARD.
 *
 * <ul>
 *   <li>No host ops at all: the reductions of the step that end at or before the start of the
 *       step's first OPTIMIZER device work, or all of them when there is none (without host ops
 *       there never is, so in practice: all of them).</li>
 *   <li>Host ops that show neither a backward pass nor an optimizer anywhere in the trace:
 *       inference or evaluation; G is empty.</li>
 *   <li>Host ops with phase information, but a reduction whose enqueue and kernel launches are
 *       both unknown (phase UNKNOWN): the no-host-information rule above decides for that one
 *       collective, and the result says a fallback was used. Dropping it silently would lose a
 *       gradient bucket whenever a reader could not link one op.</li>
 * </ul>
 */
public final class GradientSet {

    /** How G was chosen. */
    public enum Mode {
        /** From the phase of each collective's enqueue. */
        PHASE,
        /** No host information at all: the §3 fallback. */
        NO_HOST_INFO,
        /** Host ops without backward or optimizer: G is empty. */
        INFERENCE
    }

    /**
     * @param members      the collectives of G, by device start
     * @param mode         how they were chosen
     * @param usedFallback true when at least one member (or the whole set) came from the
     *                     no-phase fallback
     */
    public record Selection(List<CollectiveSpan> members, Mode mode, boolean usedFallback) {
        public Selection {
            members = List.copyOf(members);
        }
    }

    private GradientSet() {
    }

    public static Selection select(StepContext step, PhaseClassifier phases) {
        if (phases.hostOpsPresent() && !phases.traceShowsTraining()) {
            return new Selection(List.of(), Mode.INFERENCE, false);
        }
        long firstOptimizerStart = firstOptimizerDeviceStart(step);
        List<CollectiveSpan> members = new ArrayList<>();
        boolean fallback = !phases.hostOpsPresent();
        for (CollectiveSpan c : step.collectives()) {
            if (!c.collective().type().isReduction()) {
                continue;
            }
            if (!phases.hostOpsPresent() || c.phase() == Phase.UNKNOWN) {
                if (c.endNs() <= firstOptimizerStart) {
                    members.add(c);
                    fallback = true;
                }
            } else if (c.phase() == Phase.BACKWARD) {
                members.add(c);
            }
        }
        return new Selection(members, phases.hostOpsPresent() ? Mode.PHASE : Mode.NO_HOST_INFO, fallback);
    }

    /** Device start of the step's first OPTIMIZER compute, or {@code Long.MAX_VALUE} when none. */
    private static long firstOptimizerDeviceStart(StepContext step) {
        int[] compute = step.compute();
        for (int k = 0; k < compute.length; k++) {
            if (step.computePhase(k) == Phase.OPTIMIZER) {
                return step.device().start(compute[k]); // compute is sorted by start
            }
        }
        return Long.MAX_VALUE;
    }
}
