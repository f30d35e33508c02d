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
 * the step except synchronisation rows, whose times are the host call's (metrics.md §1). FUSED
 * kernels (compute and communication inside one kernel) are in neither C nor K: they have their
 * own union F, and count as work for idle.
 *
 * <p>Idle is measured inside the step's period (metrics.md §2, first device start to the next
 * step's), against everything the device ran there, of any step or of none (work launched before
 * the capture included): so pipelined steps, whose windows overlap, never count the same idle
 * instant twice. {@code overlapSaving} keeps its window meaning: the serial estimate minus the
 * step's own busy time {@code |C ∪ K ∪ M|}.
 */
public final class ExposureAnalysis {

    /**
     * All lengths in ns. Window bounds are meaningful only when {@code hasWork}.
     */
    public record Exposure(boolean hasWork, long deviceStartNs, long deviceEndNs, long stepTimeNs, long commBusyNs,
                           long computeBusyNs, long overlappedNs, long exposedCommNs, long exposedGradCommNs,
                           long idleNs, long serialEstimateNs, long overlapSavingNs, Double overlapRatio,
                           long stepPeriodNs, long windowOverlapNs, long fusedBusyNs) {
    }

    /**
     * A step's period {@code [startNs, endNs)} and the union of all work of the rank's device
     * (every step's, pre-capture, unassigned; never SYNC), against which idle is measured.
     */
    public record Period(long startNs, long endNs, IntervalSet deviceBusy) {
        public long lengthNs() {
            return endNs - startNs;
        }
    }

    private ExposureAnalysis() {
    }

    /** With the step's window as its period and only its own work as busy (a step alone). */
    public static Exposure analyze(StepContext step, List<CollectiveSpan> gradients) {
        return analyze(step, gradients, null);
    }

    public static Exposure analyze(StepContext step, List<CollectiveSpan> gradients, Period period) {
        DeviceIntervals dev = step.device();
        if (!step.hasDeviceWork()) {
            return new Exposure(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0, 0);
        }
        long windowStart = step.windowStartNs();
        long windowEnd = step.windowEndNs();
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
        IntervalSet ownBusy = c.union(k).union(m);
        long serial = computeBusy + commBusy;
        long saving = serial - ownBusy.length();
        // Fused kernels are work (the device is not idle) but neither compute nor communication.
        Period p = period != null ? period : new Period(windowStart, windowEnd, ownBusy.union(f));
        long periodLength = p.lengthNs();
        long idle = periodLength - p.deviceBusy().lengthWithin(p.startNs(), p.endNs());
        long windowOverlap = Math.max(0, windowEnd - p.endNs()); // how far the work runs into later periods
        Double ratio = commBusy == 0 ? null : (double) overlapped / (double) commBusy;
        return new Exposure(true, windowStart, windowEnd, stepTime, commBusy, computeBusy, overlapped, exposedComm,
                exposedGradComm, idle, serial, saving, ratio, periodLength, windowOverlap, f.length());
    }
}
