package io.overlapanalyze.crossrank;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cross-rank evidence for splitting each rank's exposed communication into waiting and transfer
 * (metrics.md §12 rule 2), as data the pipeline applies to the rank reports
 * ({@link CrossRankSplits#apply}). Kept out of the JSON cross-rank section on purpose: it is per
 * rank and step (1,024 ranks × 300 steps); what it yields lands in each step's {@code commSplit}.
 *
 * <p>Empty when the clocks are not aligned or too rough to compare arrivals (§8): then no wait is
 * known across ranks.
 *
 * @param ranks per rank id, its evidence (absent: none)
 */
public record StepWaits(Map<Integer, RankWaits> ranks) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public StepWaits {
        ranks = java.util.Collections.unmodifiableMap(new TreeMap<>(ranks));
    }

    /** No cross-rank evidence for any rank. */
    public static StepWaits none() {
        return new StepWaits(Map.of());
    }

    /** The evidence for one rank, or {@code null} when there is none. */
    public RankWaits rank(int rank) {
        return ranks.get(rank);
    }

    /**
     * One rank's evidence.
     *
     * @param steps       the steps whose exposed communication lies entirely in collectives matched,
     *                    timed and still paired across ranks (so every part of it has a known wait)
     * @param collectives ids (ascending) of the rank's matched, timed, still-paired collectives
     * @param waitsNs     their {@code wait_r}, same order (never more than the collective's duration)
     */
    public record RankWaits(List<StepWait> steps, int[] collectives, long[] waitsNs) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        public RankWaits {
            steps = List.copyOf(steps);
            if (collectives.length != waitsNs.length) {
                throw new IllegalArgumentException("one wait per collective");
            }
        }

        /** The wait of collective {@code id} on this rank, or {@code null} when it has no cross-rank wait. */
        public Long waitOf(int id) {
            int i = Arrays.binarySearch(collectives, id);
            return i < 0 ? null : waitsNs[i];
        }
    }

    /**
     * One step's split as the cross-rank evidence gives it.
     *
     * @param step          step name
     * @param deviceStartNs its first device start (with the name, it identifies the step)
     * @param exposedCommNs |C − K| inside the step's device window as the cross-rank analysis saw it; the
     *                      split applies only to a step whose own exposed communication is this
     * @param exposedWaitNs the part of it during which the collective that ran was still waiting for
     *                      its last peer (its leading {@code wait_r} stretch)
     */
    public record StepWait(String step, long deviceStartNs, long exposedCommNs, long exposedWaitNs)
            implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }
}
