package io.overlapanalyze.report;

import java.util.List;

/**
 * Per step, the launch diagnostics of every gradient collective and their sums.
 *
 * @param collectives     one entry per member of G whose data-ready time is known, by device start
 * @param startDelayNs    sum of {@code max(0, startDelay)}
 * @param launchLateNs    sum of the late-launch parts (collectives without enqueue add 0)
 * @param commBusyNs      sum of the busy-comm-stream parts
 * @param otherNs         sum of the rest
 * @param launchLateShare {@code launchLateNs / startDelayNs}; {@code null} when the delay is 0
 * @param commBusyShare   {@code commBusyNs / startDelayNs}; {@code null} when the delay is 0
 * @param unknownReady    members of G left out because no data-ready time could be found
 */
public record LaunchReport(List<LaunchDelay> collectives, long startDelayNs, long launchLateNs, long commBusyNs,
                           long otherNs, Double launchLateShare, Double commBusyShare, int unknownReady)
                                   implements java.io.Serializable {
    public LaunchReport {
        collectives = collectives == null ? List.of() : List.copyOf(collectives);
    }
}
