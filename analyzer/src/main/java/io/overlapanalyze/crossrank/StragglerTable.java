package io.overlapanalyze.crossrank;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.report.Straggler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per rank: total wait, times arrived last, the wait the job spent on it alone, and its exposed
 * communication split into waiting-for-peers vs transfer (metrics.md §8).
 *
 * <p>Split: a collective's kernel on rank r spends its first {@code wait_r} ns waiting for the
 * last peer; W = union of those leading parts. Over the whole trace on r (all steps, so that it
 * covers every matched collective): exposed = |C − K|, exposed waiting = |(W ∩ C) − K|, exposed
 * transfer = the rest. Exposed waiting is what no bucket size can fix: only the late rank can.
 * Sorted most waited-for first (then times last, then total wait ascending, then rank).
 */
final class StragglerTable {
    private StragglerTable() {
    }

    static List<Straggler> build(List<SkewAnalysis.Timing> timings, Map<Integer, RankView> views,
                                 List<Integer> ranks) {
        Map<Integer, long[]> acc = new HashMap<>(); // totalWait, timesLast, waitedFor
        Map<Integer, List<long[]>> waitParts = new HashMap<>();
        for (int r : ranks) {
            acc.put(r, new long[3]);
            waitParts.put(r, new ArrayList<>());
        }
        for (SkewAnalysis.Timing t : timings) {
            if (!t.hasWaits()) {
                continue; // arrivals not comparable there (implausible waits): nothing to say about anyone
            }
            for (Map.Entry<Integer, Long> w : t.waits().entrySet()) {
                acc.get(w.getKey())[0] += w.getValue();
                if (w.getValue() > 0) {
                    RankView v = views.get(w.getKey());
                    Collective c = t.slot().byRank().get(w.getKey());
                    long s = v.start(c);
                    waitParts.get(w.getKey()).add(new long[] {s, Math.min(v.end(c), s + w.getValue())});
                }
            }
            if (t.lastRank() >= 0) {
                acc.get(t.lastRank())[1]++;
                acc.get(t.lastRank())[2] += t.waitedForNs();
            }
        }
        List<Straggler> out = new ArrayList<>();
        for (int r : ranks) {
            long[] a = acc.get(r);
            DeviceIntervals d = views.get(r).trace.device();
            IntervalSet.Builder comm = IntervalSet.builder();
            IntervalSet.Builder compute = IntervalSet.builder();
            for (int i = 0; i < d.size(); i++) {
                if (d.preCapture(i)) {
                    continue; // launched before the capture: in no step, out of the cross-rank figures
                }
                if (d.kind(i) == DeviceKind.COMM) {
                    comm.add(d.start(i), d.end(i));
                } else if (d.kind(i) == DeviceKind.COMPUTE) {
                    compute.add(d.start(i), d.end(i));
                }
            }
            IntervalSet.Builder wait = IntervalSet.builder();
            for (long[] p : waitParts.get(r)) {
                wait.add(p[0], p[1]);
            }
            IntervalSet c = comm.build();
            IntervalSet k = compute.build();
            long exposed = c.subtract(k).length();
            long exposedWait = wait.build().intersect(c).subtract(k).length();
            out.add(new Straggler(r, a[0], (int) a[1], a[2], exposed, exposedWait, exposed - exposedWait,
                    exposed == 0 ? null : (double) exposedWait / exposed));
        }
        out.sort(Comparator.comparingLong(Straggler::waitedForNs).reversed()
                .thenComparing(Comparator.comparingInt(Straggler::timesArrivedLast).reversed())
                .thenComparingLong(Straggler::totalWaitNs)
                .thenComparingInt(Straggler::rank));
        return out;
    }
}
