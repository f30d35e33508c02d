package io.overlapanalyze.report;

/**
 * Arrival skew over the timed matched collectives (aligned clocks). The arrival figures (median and
 * max skew, the worst collective) are {@code null} when no collective has waits: the clocks are too
 * rough to compare arrivals, or every timed collective had an implausible wait (metrics.md §8).
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
 * @param totalWaitNs       sum of every rank's wait; {@code null} when no waits were made (clocks too rough)
 * @param implausibleWaits  raw waits longer than the rank's own collective (metrics.md §8): a wait cannot
 *                          outlast the collective it sits in, so such a value means the pairing or the
 *                          clocks are wrong; counted here, never reported as a wait (their collectives
 *                          carry no waits); {@code null} when no waits were made
 */
public record SkewSummary(int timed, Long medianSkewNs, Long maxSkewNs, String worstGroup, Long worstIndex,
                          String worstType, String worstStep, Integer worstLastRank, Long medianEndSkewNs,
                          Long totalWaitNs, Integer implausibleWaits) implements java.io.Serializable {
}
