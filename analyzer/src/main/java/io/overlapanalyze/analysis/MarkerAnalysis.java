package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.Markers;
import io.overlapanalyze.report.Phase;

import java.util.List;

/**
 * The four markers of metrics.md §4 and the values derived from them.
 *
 * <ul>
 *   <li>{@code g1}: the member of G with the earliest device start (ties: earlier end, then
 *       lower id); {@code gL}: the one that ends last (ties: later start, then higher id).</li>
 *   <li>{@code lastComputeEnd}: latest end among the step's BACKWARD compute kernels that start
 *       before {@code lastReduceEnd}. Kernels of phase UNKNOWN (no host launch to classify them)
 *       count too: that is the contract's "no phase information" rule (all non-OPTIMIZER compute)
 *       applied kernel by kernel, and it is exactly that rule when the trace has no host ops.</li>
 *   <li>{@code tail = max(0, lastReduceEnd − lastComputeEnd)}; undefined (null) when G is empty
 *       or no backward compute starts before the last reduction ends.</li>
 *   <li>{@code startDelay = reduceStart − firstBucketReady} is signed: a negative value means the
 *       launch-order rule found a producer that ended after g1 started (another stream), which
 *       the reader of the report should see rather than have hidden.</li>
 *   <li>{@code launchLate = max(0, enqueue(g1) − firstBucketReady)}; null when the enqueue is
 *       unknown (the host launch of g1's first kernel stands in for a missing enqueue, see
 *       {@link StepContext.CollectiveSpan#enqueueNs()}).</li>
 * </ul>
 */
public final class MarkerAnalysis {

    /**
     * @param markers        the markers ({@link Markers#undefined()} when G is empty)
     * @param g1             first gradient collective, or {@code null}
     * @param gL             last-ending gradient collective, or {@code null}
     * @param tailNs         tail, or {@code null}
     * @param lastBucketTailNs lastReduceEnd − lastBucketReady, or {@code null}
     * @param startDelayNs   reduceStart − firstBucketReady, or {@code null}
     * @param launchLateNs   late-launch part of the start delay, or {@code null}
     * @param approximate    a data-ready time used the no-launch-data fallback
     */
    public record Result(Markers markers, CollectiveSpan g1, CollectiveSpan gL, Long tailNs, Long lastBucketTailNs,
                         Long startDelayNs, Long launchLateNs, boolean approximate) {
        public static Result undefined() {
            return new Result(Markers.undefined(), null, null, null, null, null, null, false);
        }
    }

    private MarkerAnalysis() {
    }

    public static Result analyze(StepContext step, List<CollectiveSpan> gradients, DataReady dataReady) {
        if (gradients.isEmpty()) {
            return Result.undefined();
        }
        CollectiveSpan g1 = gradients.get(0);
        CollectiveSpan gL = gradients.get(0);
        for (CollectiveSpan g : gradients) {
            if (g.startNs() < g1.startNs() || (g.startNs() == g1.startNs()
                    && (g.endNs() < g1.endNs() || (g.endNs() == g1.endNs() && g.id() < g1.id())))) {
                g1 = g;
            }
            if (g.endNs() > gL.endNs() || (g.endNs() == gL.endNs()
                    && (g.startNs() > gL.startNs() || (g.startNs() == gL.startNs() && g.id() > gL.id())))) {
                gL = g;
            }
        }
        DataReady.Ready first = dataReady.readyFor(g1);
        DataReady.Ready last = dataReady.readyFor(gL);
        long reduceStart = g1.startNs();
        long lastReduceEnd = gL.endNs();
        long lastComputeEnd = lastBackwardComputeEnd(step, lastReduceEnd);

        Long tail = Time.isKnown(lastComputeEnd) ? Math.max(0L, lastReduceEnd - lastComputeEnd) : null;
        Long lastBucketTail = last.known() ? lastReduceEnd - last.readyNs() : null;
        Long startDelay = first.known() ? reduceStart - first.readyNs() : null;
        Long launchLate = first.known() && Time.isKnown(g1.enqueueNs())
                ? Math.max(0L, g1.enqueueNs() - first.readyNs()) : null;
        Markers markers = new Markers(first.orNull(), reduceStart,
                Time.isKnown(lastComputeEnd) ? lastComputeEnd : null, lastReduceEnd, last.orNull());
        return new Result(markers, g1, gL, tail, lastBucketTail, startDelay, launchLate,
                first.approximate() || last.approximate());
    }

    /** Latest end of BACKWARD (or phase-unknown) compute starting before {@code lastReduceEnd}. */
    static long lastBackwardComputeEnd(StepContext step, long lastReduceEnd) {
        DeviceIntervals dev = step.device();
        int[] compute = step.compute();
        long latest = Time.UNKNOWN;
        for (int k = 0; k < compute.length; k++) {
            int i = compute[k];
            if (dev.start(i) >= lastReduceEnd) {
                break; // sorted by start: nothing later can hide the last reduction
            }
            Phase phase = step.computePhase(k);
            if (phase == Phase.BACKWARD || phase == Phase.UNKNOWN) {
                latest = Time.isKnown(latest) ? Math.max(latest, dev.end(i)) : dev.end(i);
            }
        }
        return latest;
    }
}
