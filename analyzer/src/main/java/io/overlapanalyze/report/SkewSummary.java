package io.overlapanalyze.report;

/**
 * Arrival skew over the timed matched collectives (aligned clocks).
 *
 * @param timed             collectives with device times on every member
 * @param medianSkewNs      median of (latest − earliest arrival)
 * @param maxSkewNs         largest skew
 * @param worstGroup        group of the most skewed collective
 * @param worstIndex        its index
 * @param worstType         its type
 * @param worstStep         its step (first rank's view)
 * @param worstLastRank     who arrived last there
 * @param medianEndSkewNs   median of (latest − earliest end) after alignment: near 0 when the model holds
 * @param totalWaitNs       sum of every rank's wait
 */
public record SkewSummary(int timed, Long medianSkewNs, Long maxSkewNs, String worstGroup, Long worstIndex,
                          String worstType, String worstStep, Integer worstLastRank, Long medianEndSkewNs,
                          long totalWaitNs) implements java.io.Serializable {
}
