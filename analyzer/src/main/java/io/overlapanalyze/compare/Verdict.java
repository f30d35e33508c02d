package io.overlapanalyze.compare;

/** Whether a change between two runs is statistically meaningful (metrics.md §10). */
public enum Verdict {
    /** Mann-Whitney U two-sided p-value below alpha. */
    SIGNIFICANT,
    /** Enough samples, p-value at or above alpha: the runs do not differ beyond noise. */
    NOT_SIGNIFICANT,
    /** Fewer than {@link Samples#MIN_FOR_TEST} samples on a side: no verdict is given. */
    TOO_FEW_SAMPLES,
    /** The metric is not defined on one side (no sample at all). */
    NOT_AVAILABLE
}
