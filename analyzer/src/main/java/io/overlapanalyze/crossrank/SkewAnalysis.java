package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.report.SkewSummary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Per matched collective (metrics.md §8): {@code arrival_r} = aligned device start,
 * {@code wait_r = max arrival − arrival_r}, {@code transfer = min duration over ranks}. The rank
 * arriving strictly after all others is "last"; the time the job waited on it alone is its
 * arrival minus the next-latest arrival. Ties name no one.
 */
final class SkewAnalysis {
    private SkewAnalysis() {
    }

    /**
     * @param waits       per rank wait (ns)
     * @param lastRank    strictly-last rank, or -1
     * @param waitedForNs last arrival − next-latest arrival (0 when tied)
     */
    record Timing(Slot slot, Map<Integer, Long> waits, long arrivalSkewNs, long endSkewNs, long transferNs,
                  int lastRank, long waitedForNs) {
    }

    /** Timings of the slots timed on every member; others are skipped. */
    static List<Timing> time(List<Slot> slots, Map<Integer, RankView> views, ClockAligner.Result clocks) {
        List<Timing> out = new ArrayList<>();
        for (Slot s : slots) {
            if (!s.byRank().entrySet().stream().allMatch(e -> views.get(e.getKey()).timed(e.getValue()))) {
                continue;
            }
            Map<Integer, Long> arrival = new TreeMap<>();
            long maxArr = Long.MIN_VALUE;
            long minArr = Long.MAX_VALUE;
            long maxEnd = Long.MIN_VALUE;
            long minEnd = Long.MAX_VALUE;
            long transfer = Long.MAX_VALUE;
            for (Map.Entry<Integer, Collective> e : s.byRank().entrySet()) {
                RankView v = views.get(e.getKey());
                long a = ClockAligner.alignedStart(v, e.getValue(), clocks);
                long end = ClockAligner.alignedEnd(v, e.getValue(), clocks);
                arrival.put(e.getKey(), a);
                maxArr = Math.max(maxArr, a);
                minArr = Math.min(minArr, a);
                maxEnd = Math.max(maxEnd, end);
                minEnd = Math.min(minEnd, end);
                transfer = Math.min(transfer, v.end(e.getValue()) - v.start(e.getValue()));
            }
            Map<Integer, Long> waits = new TreeMap<>();
            int last = -1;
            int atMax = 0;
            long second = Long.MIN_VALUE;
            for (Map.Entry<Integer, Long> e : arrival.entrySet()) {
                waits.put(e.getKey(), maxArr - e.getValue());
                if (e.getValue() == maxArr) {
                    atMax++;
                    last = e.getKey();
                } else {
                    second = Math.max(second, e.getValue());
                }
            }
            if (atMax != 1 || arrival.size() < 2) {
                last = -1;
            }
            long waitedFor = last >= 0 ? maxArr - second : 0;
            out.add(new Timing(s, waits, maxArr - minArr, maxEnd - minEnd, transfer, last, waitedFor));
        }
        return out;
    }

    static SkewSummary summarize(List<Timing> timings, Map<Integer, RankView> views) {
        if (timings.isEmpty()) {
            return new SkewSummary(0, null, null, null, null, null, null, null, null, 0);
        }
        long[] skews = new long[timings.size()];
        long[] endSkews = new long[timings.size()];
        Timing worst = timings.get(0);
        long totalWait = 0;
        for (int i = 0; i < timings.size(); i++) {
            Timing t = timings.get(i);
            skews[i] = t.arrivalSkewNs();
            endSkews[i] = t.endSkewNs();
            if (t.arrivalSkewNs() > worst.arrivalSkewNs()) {
                worst = t;
            }
            for (long w : t.waits().values()) {
                totalWait += w;
            }
        }
        Map.Entry<Integer, Collective> first = worst.slot().byRank().entrySet().iterator().next();
        return new SkewSummary(timings.size(), median(skews), worst.arrivalSkewNs(), worst.slot().group().display(),
                worst.slot().index(), first.getValue().type().name(), views.get(first.getKey()).step(first.getValue()),
                worst.lastRank() >= 0 ? worst.lastRank() : null, median(endSkews), totalWait);
    }

    /** Median of whole ns; for an even count the lower-middle-rounded mean of the two middles. */
    static long median(long[] values) {
        return ClockAligner.divRound(ClockAligner.medianTimesTwo(values), 2);
    }

    static Long medianOrNull(long[] values) {
        return values.length == 0 ? null : median(values);
    }

    static long[] toArray(List<Long> list) {
        return list.stream().mapToLong(Long::longValue).toArray();
    }

    static double medianDouble(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }
}
