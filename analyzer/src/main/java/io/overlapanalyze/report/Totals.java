package io.overlapanalyze.report;

/**
 * Sums over the complete steps of a rank (partial steps only with {@code --include-partial}),
 * plus medians of the per-step values users compare across runs. {@code stepPeriodNs} adds the
 * steps' periods (metrics.md §2), which never overlap: with {@code idleNs} it never exceeds the
 * device span, where {@code stepTimeNs} adds windows that pipelined steps overlap. It is
 * {@code null} in summaries written before it existed.
 */
public record Totals(int steps, long stepTimeNs, long commBusyNs, long computeBusyNs, long overlappedNs,
                     long exposedCommNs, long exposedGradCommNs, long idleNs, long serialEstimateNs,
                     long tailNs, Double overlapRatio, Medians medians, Long stepPeriodNs)
                             implements java.io.Serializable {

    /** Medians over the same steps; {@code null} members when no step defines the value. */
    public record Medians(Long stepTimeNs, Long tailNs, Long exposedCommNs, Long exposedGradCommNs,
                          Double overlapRatio, Long startDelayNs) implements java.io.Serializable {
    }
}
