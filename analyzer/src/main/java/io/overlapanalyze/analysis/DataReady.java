package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;

import java.util.Arrays;

/**
 * When a collective's input was complete on the device (metrics.md §4, {@code firstBucketReady}).
 *
 * <ul>
 *   <li>With host launch data: the latest device end among the step's COMPUTE kernels whose host
 *       launch is strictly before the collective's enqueue (PyTorch issues a bucket's all-reduce
 *       after the kernels that produce it were launched, on the same stream order).</li>
 *   <li>Without it (enqueue unknown, or no compute kernel of the step has a launch time): the
 *       latest compute end at or before the collective's device start, flagged approximate.</li>
 * </ul>
 * Scope: compute kernels of the same step only. A bucket's gradients are produced in its own
 * step's backward pass; the previous step's kernels all ended long before and cannot be later
 * than the latest of this step's.
 *
 * <p>The model carries no explicit dependency edges (Kineto {@code cuda_sync} / stream-wait
 * events), so the explicit-dependency rule of §4 is not applied; the launch-order rule is.
 *
 * <p>Cost: O(k log k) to build per step, O(log k) per query (sorted arrays, running maxima).
 */
public final class DataReady {
    /**
     * @param readyNs     the data-ready time, or {@link Time#UNKNOWN} when no compute qualifies
     * @param approximate true when the no-launch-data fallback was used
     */
    public record Ready(long readyNs, boolean approximate) {
        public boolean known() {
            return Time.isKnown(readyNs);
        }

        public Long orNull() {
            return known() ? readyNs : null;
        }
    }

    /** Launch times of compute with a known launch, ascending. */
    private final long[] launchSorted;
    /** Running max of device end over {@link #launchSorted}. */
    private final long[] maxEndByLaunch;
    /** Device ends of all compute, ascending. */
    private final long[] endsSorted;

    public DataReady(StepContext step) {
        DeviceIntervals dev = step.device();
        int[] compute = step.compute();
        int known = 0;
        for (int i : compute) {
            if (Time.isKnown(dev.launchNs(i))) {
                known++;
            }
        }
        long[] launches = new long[known];
        long[] ends = new long[known];
        int k = 0;
        for (int i : compute) {
            if (Time.isKnown(dev.launchNs(i))) {
                launches[k] = dev.launchNs(i);
                ends[k] = dev.end(i);
                k++;
            }
        }
        int[] order = PrimitiveSort.indexesSortedBy(launches, known);
        launchSorted = new long[known];
        maxEndByLaunch = new long[known];
        long runningMax = Long.MIN_VALUE;
        for (int j = 0; j < known; j++) {
            launchSorted[j] = launches[order[j]];
            runningMax = Math.max(runningMax, ends[order[j]]);
            maxEndByLaunch[j] = runningMax;
        }
        endsSorted = new long[compute.length];
        for (int j = 0; j < compute.length; j++) {
            endsSorted[j] = dev.end(compute[j]);
        }
        Arrays.sort(endsSorted);
    }

    public Ready readyFor(CollectiveSpan collective) {
        if (Time.isKnown(collective.enqueueNs()) && launchSorted.length > 0) {
            // Last compute launched strictly before the enqueue.
            int j = StepAssigner.lastAtOrBefore(launchSorted, launchSorted.length, collective.enqueueNs() - 1);
            return new Ready(j >= 0 ? maxEndByLaunch[j] : Time.UNKNOWN, false);
        }
        if (endsSorted.length == 0) {
            return new Ready(Time.UNKNOWN, false);
        }
        int j = StepAssigner.lastAtOrBefore(endsSorted, endsSorted.length, collective.startNs());
        return new Ready(j >= 0 ? endsSorted[j] : Time.UNKNOWN, true);
    }
}
