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
 *
 * <p>Honesty rules: a wait never outlasts the rank's own collective (it sits inside it). A raw
 * {@code wait_r} longer than that collective means the pairing or the clocks are wrong: it is
 * counted ({@link Timing#implausible}) and the collective gets no waits, no arrival skew and no
 * last rank at all, since its arrivals are not comparable. When the clocks are too rough for
 * arrivals ({@code waitsAllowed} false), no collective gets any.
 */
final class SkewAnalysis {
    private SkewAnalysis() {
    }

    /**
     * @param waits         per rank wait (ns); {@code null} when no waits were made for this collective
     * @param arrivalSkewNs latest − earliest aligned arrival; {@code null} with the waits
     * @param lastRank      strictly-last rank, or -1 (always -1 without waits)
     * @param waitedForNs   last arrival − next-latest arrival (0 when tied or without waits)
     * @param implausible   ranks whose raw wait exceeded their own collective's duration
     */
    record Timing(Slot slot, Map<Integer, Long> waits, Long arrivalSkewNs, long endSkewNs, long transferNs,
                  int lastRank, long waitedForNs, int implausible) {
        boolean hasWaits() {
            return waits != null;
        }
    }

    /**
     * Timings of the slots timed on every member; others are skipped.
     *
     * @param waitsAllowed false when the clocks do not allow comparing arrivals: then no waits are made
     */
    static List<Timing> time(List<Slot> slots, Map<Integer, RankView> views, ClockAligner.Result clocks,
                             boolean waitsAllowed) {
        List<Timing> out = new ArrayList<>();
        for (Slot s : slots) {
            if (!s.byRank().entrySet().stream().allMatch(e -> views.get(e.getKey()).timed(e.getValue()))) {
                continue;
            }
            Map<Integer, Long> arrival = new TreeMap<>();
            Map<Integer, Long> duration = new TreeMap<>();
            long maxArr = Long.MIN_VALUE;
            long minArr = Long.MAX_VALUE;
            long maxEnd = Long.MIN_VALUE;
            long minEnd = Long.MAX_VALUE;
            long transfer = Long.MAX_VALUE;
            for (Map.Entry<Integer, Collective> e : s.byRank().entrySet()) {
                RankView v = views.get(e.getKey());
                long a = ClockAligner.alignedStart(v, e.getValue(), clocks);
                long end = ClockAligner.alignedEnd(v, e.getValue(), clocks);
                long d = v.end(e.getValue()) - v.start(e.getValue());
                arrival.put(e.getKey(), a);
                duration.put(e.getKey(), d);
                maxArr = Math.max(maxArr, a);
                minArr = Math.min(minArr, a);
                maxEnd = Math.max(maxEnd, end);
                minEnd = Math.min(minEnd, end);
                transfer = Math.min(transfer, d);
            }
            if (!waitsAllowed) {
                out.add(new Timing(s, null, null, maxEnd - minEnd, transfer, -1, 0, 0));
                continue;
            }
            Map<Integer, Long> waits = new TreeMap<>();
            int implausible = 0;
            int last = -1;
            int atMax = 0;
            long second = Long.MIN_VALUE;
            for (Map.Entry<Integer, Long> e : arrival.entrySet()) {
                long w = maxArr - e.getValue();
                if (w > duration.get(e.getKey())) {
                    implausible++;
                }
                waits.put(e.getKey(), w);
                if (e.getValue() == maxArr) {
                    atMax++;
                    last = e.getKey();
                } else {
                    second = Math.max(second, e.getValue());
                }
            }
            if (implausible > 0) {
                out.add(new Timing(s, null, null, maxEnd - minEnd, transfer, -1, 0, implausible));
                continue;
            }
            if (atMax != 1 || arrival.size() < 2) {
                last = -1;
            }
            long waitedFor = last >= 0 ? maxArr - second : 0;
            out.add(new Timing(s, waits, maxArr - minArr, maxEnd - minEnd, transfer, last, waitedFor, 0));
        }
        return out;
    }

    /**
     * @param waitsAllowed as for {@link #time}: false leaves every wait figure {@code null}
     */
    static SkewSummary summarize(List<Timing> timings, Map<Integer, RankView> views, boolean waitsAllowed) {
        if (timings.isEmpty()) {
            return new SkewSummary(0, null, null, null, null, null, null, null, null, waitsAllowed ? 0L : null,
                    waitsAllowed ? 0 : null);
        }
        long[] endSkews = new long[timings.size()];
        List<Long> skews = new ArrayList<>();
        Timing worst = null;
        long totalWait = 0;
        int implausible = 0;
        for (int i = 0; i < timings.size(); i++) {
            Timing t = timings.get(i);
            endSkews[i] = t.endSkewNs();
            implausible += t.implausible();
            if (!t.hasWaits()) {
                continue;
            }
            skews.add(t.arrivalSkewNs());
            if (worst == null || t.arrivalSkewNs() > worst.arrivalSkewNs()) {
                worst = t;
            }
            for (long w : t.waits().values()) {
                totalWait += w;
            }
        }
        if (worst == null) {
            return new SkewSummary(timings.size(), null, null, null, null, null, null, null, median(endSkews),
                    waitsAllowed ? 0L : null, waitsAllowed ? implausible : null);
        }
        Map.Entry<Integer, Collective> first = worst.slot().byRank().entrySet().iterator().next();
        return new SkewSummary(timings.size(), median(toArray(skews)), worst.arrivalSkewNs(),
                worst.slot().group().display(), worst.slot().index(), first.getValue().type().name(),
                views.get(first.getKey()).step(first.getValue()), worst.lastRank() >= 0 ? worst.lastRank() : null,
                median(endSkews), totalWait, implausible);
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
