package io.overlapanalyze.report;

/**
 * Sums over the complete steps of a rank (partial steps only with {@code --include-partial}),
 * plus medians of the per-step values users compare across runs.
 */
public record Totals(int steps, long stepTimeNs, long commBusyNs, long computeBusyNs, long overlappedNs,
                     long exposedCommNs, long exposedGradCommNs, long idleNs, long serialEstimateNs,
                     long tailNs, Double overlapRatio, Medians medians) {

    /** Medians over the same steps; {@code null} members when no step defines the value. */
    public record Medians(Long stepTimeNs, Long tailNs, Long exposedCommNs, Long exposedGradCommNs,
                          Double overlapRatio, Long startDelayNs) {
    }
}
