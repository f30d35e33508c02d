package io.overlapanalyze.report;

/**
 * One gradient collective's way from data-ready to device start (the seed's "data
 * dependency or late launch?"): {@code readyNs → enqueueNs → startNs}. The start delay splits into
 * three parts that add up to {@code max(0, startDelayNs)}:
 * {@code launchLateNs} (the host issued it after the data was ready), {@code commBusyNs} (then the
 * comm stream was still running the previous collective), {@code otherNs} (the rest: peers, an
 * untraced dependency).
 *
 * @param collective   collective id within the rank
 * @param readyNs      data-ready time (metrics.md §4 rules)
 * @param enqueueNs    host enqueue, or {@code null} when unknown
 * @param startNs      device start
 * @param startDelayNs {@code startNs − readyNs} (signed, as in metrics.md §4)
 * @param launchLateNs {@code clamp(enqueue − ready, 0, max(0, startDelay))}; {@code null} without enqueue
 * @param commBusyNs   part of what remains after {@code max(ready, enqueue)} during which the
 *                     previous COMM interval of the same lane was still running
 * @param otherNs      the remainder
 */
public record LaunchDelay(int collective, long readyNs, Long enqueueNs, long startNs, long startDelayNs,
                          Long launchLateNs, long commBusyNs, long otherNs) implements java.io.Serializable {
}
