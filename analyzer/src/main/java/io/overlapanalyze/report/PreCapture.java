package io.overlapanalyze.report;

/**
 * Device work launched before the capture began (metrics.md §2): still running from launches the
 * file does not hold. It belongs to no step and is reported here, per rank.
 *
 * @param intervals  how many device intervals (kernels, copies, sets, syncs)
 * @param busyNs     length of the union of their work (compute, communication, copies, sets) over all lanes
 * @param commBusyNs length of the union of their COMM intervals
 */
public record PreCapture(int intervals, long busyNs, long commBusyNs) implements java.io.Serializable {
    public static PreCapture none() {
        return new PreCapture(0, 0, 0);
    }
}
