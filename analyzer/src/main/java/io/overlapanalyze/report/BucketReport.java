package io.overlapanalyze.report;

/**
 * One gradient bucket of a step: a member of the gradient set G (metrics.md §3), as its
 * reduction ran on the device. Steps list them by device start, so the list is the bucket
 * layout a diff compares (how many, how big, which one finishes last).
 *
 * @param collective collective id within the rank (the same id as {@link ChainLink#collective()})
 * @param type       collective type ("ALL_REDUCE", "REDUCE_SCATTER", "REDUCE")
 * @param bytes      message bytes, or {@code null} when the trace does not say
 * @param startNs    device start of its first kernel in the step
 * @param endNs      device end of its last kernel in the step
 * @param durationNs {@code endNs − startNs}: how long its reduction took on the device
 * @param last       true for gL, the member that ends last (its end is {@code lastReduceEnd})
 */
public record BucketReport(int collective, String type, Long bytes, long startNs, long endNs, long durationNs,
                           boolean last) implements java.io.Serializable {
}
