package io.overlapanalyze.report;

/**
 * Sums over the complete steps of a rank (partial steps only with {@code --include-partial}),
 * plus medians of the per-step values users compare across runs. {@code stepPeriodNs} adds the
 * steps' periods (metrics.md §2), which never overlap: with {@code idleNs} it never exceeds the
 * device span, where {@code stepTimeNs} adds windows that pipelined steps overlap. It is
 * {@code null} in summaries written before it existed.
 *
 * <p>{@code breakdown} and {@code idle} (metrics.md §11) add the steps' own over the same steps
 * that have one, so {@code breakdown} adds up to {@code stepPeriodNs} and {@code idle} to
 * {@code idleNs}; {@code idle.hostActivity} merges the steps' lists by name, largest first, and
 * since each step lists only its largest few, a name missing from some step's list counts only
 * where it was listed. Both are {@code null} when no step has a breakdown, and in summaries
 * written before they existed.
 */
public record Totals(int steps, long stepTimeNs, long commBusyNs, long computeBusyNs, long overlappedNs,
                     long exposedCommNs, long exposedGradCommNs, long idleNs, long serialEstimateNs,
                     long tailNs, Double overlapRatio, Medians medians, Long stepPeriodNs,
                     StepBreakdown breakdown, IdleBreakdown idle)
                             implements java.io.Serializable {

    /**
     * Medians over the same steps; {@code null} members when no step defines the value (and in
     * summaries written before a member existed). {@code breakdown} holds the median of each part
     * on its own: the parts of medians need not add up to the median period.
     */
    public record Medians(Long stepTimeNs, Long tailNs, Long exposedCommNs, Long exposedGradCommNs,
                          Double overlapRatio, Long startDelayNs, Long stepPeriodNs, StepBreakdown breakdown,
                          Long idleHostNs, Long idleLaunchedNs) implements java.io.Serializable {
    }
}
