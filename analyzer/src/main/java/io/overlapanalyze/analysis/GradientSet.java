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
 *       both unknown (phase UNKNOWN): not in G (§3: a collective without a host enqueue is in G
 *       only under the no-host-information fallback). Such work was usually launched before the
 *       capture or outside the host spans the trace kept; counting it would make G depend on
 *       device timing instead of the host's record. The result counts how many were left out so
 *       the step can say so.</li>
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
     * @param usedFallback true when the whole set came from the no-host-information fallback
     * @param unlinkedLeftOut reductions of the step with phase UNKNOWN (no host enqueue or launch)
     *                     left out of G because the trace does carry host information
     */
    public record Selection(List<CollectiveSpan> members, Mode mode, boolean usedFallback, int unlinkedLeftOut) {
        public Selection {
            members = List.copyOf(members);
        }

        public Selection(List<CollectiveSpan> members, Mode mode, boolean usedFallback) {
            this(members, mode, usedFallback, 0);
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
        boolean noHost = !phases.hostOpsPresent();
        int leftOut = 0;
        for (CollectiveSpan c : step.collectives()) {
            if (!c.collective().type().isReduction()) {
                continue;
            }
            if (noHost) {
                if (c.endNs() <= firstOptimizerStart) {
                    members.add(c);
                }
            } else if (c.phase() == Phase.BACKWARD) {
                members.add(c);
            } else if (c.phase() == Phase.UNKNOWN) {
                leftOut++;
            }
        }
        return new Selection(members, noHost ? Mode.NO_HOST_INFO : Mode.PHASE, noHost, leftOut);
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
