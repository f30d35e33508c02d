package io.overlapanalyze.analysis.patterns;

import io.overlapanalyze.analysis.DataReady;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.LaunchDelay;
import io.overlapanalyze.report.LaunchReport;

import java.util.ArrayList;
import java.util.List;

/**
 * "Data dependency or late launch?" for every gradient collective, not only g1
 * (metrics.md §4 defines it for g1). Along {@code ready → enqueue → start}:
 *
 * <ul>
 *   <li>{@code startDelay = start − ready} (data-ready by the §4 rules, {@link DataReady}).</li>
 *   <li>{@code launchLate}: the host issued it after the data was ready,
 *       {@code clamp(enqueue − ready, 0, max(0, startDelay))}. Clamped so the parts add up to the
 *       delay: a collective enqueued late but started at once (the device waited on the host)
 *       is all late launch.</li>
 *   <li>From {@code max(ready, enqueue)} to {@code start}: the part during which the previous COMM
 *       interval on the same lane was still running is {@code commBusy} (a busy comm stream, the
 *       §6 QUEUE reason); the rest is {@code other} (waiting for peers inside NCCL's launch, an
 *       untraced dependency).</li>
 * </ul>
 * The step sums the parts over collectives (negative delays add 0) and gives the shares of the
 * summed delay.
 */
public final class LaunchDiagnostics {
    private LaunchDiagnostics() {
    }

    /** The step's diagnostics, or {@code null} when G is empty. */
    public static LaunchReport analyze(StepContext step, List<CollectiveSpan> gradients, DataReady dataReady) {
        if (gradients.isEmpty()) {
            return null;
        }
        DeviceIntervals dev = step.device();
        List<LaunchDelay> rows = new ArrayList<>();
        long sumDelay = 0;
        long sumLate = 0;
        long sumBusy = 0;
        long sumOther = 0;
        int unknown = 0;
        for (CollectiveSpan g : gradients) {
            DataReady.Ready ready = dataReady.readyFor(g);
            if (!ready.known()) {
                unknown++;
                continue;
            }
            long r = ready.readyNs();
            long start = g.startNs();
            long delay = start - r;
            long positive = Math.max(0, delay);
            Long late = null;
            long from = r;
            if (Time.isKnown(g.enqueueNs())) {
                late = Math.min(Math.max(0, g.enqueueNs() - r), positive);
                from = Math.max(r, g.enqueueNs());
            }
            long remaining = Math.max(0, start - from);
            long prevEnd = previousCommEnd(step, dev, g);
            long busy = Time.isKnown(prevEnd) ? Math.min(Math.max(0, Math.min(start, prevEnd) - from), remaining) : 0;
            long other = remaining - busy;
            rows.add(new LaunchDelay(g.id(), r, Time.isKnown(g.enqueueNs()) ? g.enqueueNs() : null, start, delay, late,
                    busy, other));
            sumDelay += positive;
            sumLate += late == null ? 0 : late;
            sumBusy += busy;
            sumOther += other;
        }
        Double lateShare = sumDelay > 0 ? (double) sumLate / sumDelay : null;
        Double busyShare = sumDelay > 0 ? (double) sumBusy / sumDelay : null;
        return new LaunchReport(rows, sumDelay, sumLate, sumBusy, sumOther, lateShare, busyShare, unknown);
    }

    /** Latest end of the COMM intervals on g's lane that start before g and are not g's own. */
    private static long previousCommEnd(StepContext step, DeviceIntervals dev, CollectiveSpan g) {
        long best = Time.UNKNOWN;
        int own = g.id();
        for (int i : step.commOnLane(g.lane())) {
            if (dev.start(i) >= g.startNs()) {
                break; // sorted by start
            }
            if (dev.collective(i) == own) {
                continue;
            }
            best = Time.isKnown(best) ? Math.max(best, dev.end(i)) : dev.end(i);
        }
        return best;
    }
}
