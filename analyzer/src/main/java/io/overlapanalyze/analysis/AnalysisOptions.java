package io.overlapanalyze.analysis;

/**
 * Knobs of the single-rank analysis.
 *
 * @param includePartial     add partial steps to totals and medians
 * @param epsilonFloorNs     lower bound of the attribution tolerance ε (metrics.md §6: 2 µs)
 * @param epsilonFraction    ε as a fraction of the collective's duration (metrics.md §6: 0.5 %)
 */
public record AnalysisOptions(boolean includePartial, long epsilonFloorNs, double epsilonFraction)
        implements java.io.Serializable {
    public static AnalysisOptions defaults() {
        return new AnalysisOptions(false, 2_000L, 0.005);
    }

    /** The same options with partial steps included in (or excluded from) totals. */
    public AnalysisOptions withIncludePartial(boolean include) {
        return new AnalysisOptions(include, epsilonFloorNs, epsilonFraction);
    }

    /** ε for a collective of the given duration: max(floor, fraction × duration), in whole ns. */
    public long epsilonFor(long durationNs) {
        // Integer arithmetic for the contract's default 0.5 % keeps it exact: 5 ns per µs.
        long fractional = (long) Math.floor(durationNs * epsilonFraction);
        return Math.max(epsilonFloorNs, fractional);
    }
}
