package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;

import java.util.List;

/**
 * Overlap and exposure of one step (metrics.md §5), by union/intersection over all lanes.
 *
 * <p>{@code G_intervals} are the COMM intervals of the collectives in G, so that
 * {@code exposedGradComm ≤ exposedComm} always holds. The device window spans every interval of
 * the step, whatever its kind (kernels, copies, sets, syncs). FUSED kernels (compute and
 * communication inside one kernel) are in neither C nor K: they have their own union F, and count
 * as work for idle.
 */
public final class ExposureAnalysis {

    /**
     * All lengths in ns. Window bounds are meaningful only when {@code hasWork}.
     */
    public record Exposure(boolean hasWork, long deviceStartNs, long deviceEndNs, long stepTimeNs, long commBusyNs,
                           long computeBusyNs, long overlappedNs, long exposedCommNs, long exposedGradCommNs,
                           long idleNs, long serialEstimateNs, long overlapSavingNs, Double overlapRatio,
                           long fusedBusyNs) {
    }

    private ExposureAnalysis() {
    }

    public static Exposure analyze(StepContext step, List<CollectiveSpan> gradients) {
        DeviceIntervals dev = step.device();
        int[] all = step.intervals();
        if (all.length == 0) {
            return new Exposure(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0);
        }
        long windowStart = Long.MAX_VALUE;
        long windowEnd = Long.MIN_VALUE;
        for (int i : all) {
            windowStart = Math.min(windowStart, dev.start(i));
            windowEnd = Math.max(windowEnd, dev.end(i));
        }
        IntervalSet c = IntervalSet.unionOf(dev, step.comm());
        IntervalSet k = IntervalSet.unionOf(dev, step.compute());
        IntervalSet m = IntervalSet.unionOf(dev, step.memory());
        IntervalSet f = IntervalSet.unionOf(dev, step.fused());
        IntervalSet.Builder gb = IntervalSet.builder();
        for (CollectiveSpan g : gradients) {
            for (int i : g.intervals()) {
                if (dev.kind(i) == DeviceKind.COMM) {
                    gb.add(dev.start(i), dev.end(i));
                }
            }
        }
        IntervalSet gIntervals = gb.build();

        long commBusy = c.length();
        long computeBusy = k.length();
        long overlapped = c.intersectionLength(k);
        long exposedComm = commBusy - overlapped; // |C − K| = |C| − |C ∩ K|
        long exposedGradComm = gIntervals.length() - gIntervals.intersectionLength(k);
        long stepTime = windowEnd - windowStart;
        // Fused kernels are work (the device is not idle) but neither compute nor communication.
        long busy = c.union(k).union(m).union(f).length();
        long idle = stepTime - busy;
        long serial = computeBusy + commBusy;
        long saving = serial - (stepTime - idle);
        Double ratio = commBusy == 0 ? null : (double) overlapped / (double) commBusy;
        return new Exposure(true, windowStart, windowEnd, stepTime, commBusy, computeBusy, overlapped, exposedComm,
                exposedGradComm, idle, serial, saving, ratio, f.length());
    }
}
