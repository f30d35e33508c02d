package io.overlapanalyze.report;

/**
 * Clock alignment from collective end times (metrics.md §8).
 *
 * @param aligned           true when offsets were applied
 * @param collectivesUsed   collectives every analysed rank joined (with device times)
 * @param maxResidualNs     after alignment, the largest |end_r − mean end| over those collectives
 *                          (how well "they end together" held); {@code null} when not aligned
 * @param note              why not aligned, or what was used
 */
public record ClockAlignment(boolean aligned, int collectivesUsed, Long maxResidualNs, String note)
        implements java.io.Serializable {
}
