package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The user annotation ranges of a Kineto trace, once the whole file is read and launches are
 * linked. GPU-side ranges ({@code gpu_user_annotation}) are taken as they are, on the lane of
 * their stream; a range on a stream that ran no device work has nothing to report and is left
 * out. Only when the trace has no GPU-side range at all are the host {@code user_annotation}
 * ranges used: each is given the device intervals whose host launch lies inside it on the same
 * thread (a range that launched nothing is left out). Both never at once: Kineto writes a GPU
 * range for each host range that launched work, so using both would count each twice.
 *
 * <p>The analysis costs what the ranges span: each device interval counts once for every range it
 * lies in. Nested ranges make that a few per interval; ranges that all overlap make it ranges ×
 * intervals (20,000 ranges over one step took 6 GB). So the ranges are taken in trace order while
 * the (range, interval) pairs they span stay within {@link #PAIRS_PER_INTERVAL} per device interval
 * (at least {@link #MIN_PAIRS}); the ranges past that are left out with a warning.
 */
final class AnnotationJoiner {
    /** Pairs allowed per device interval: a depth of nesting no real capture reaches. */
    static final long PAIRS_PER_INTERVAL = 16;
    /** Pairs allowed however few the intervals. */
    static final long MIN_PAIRS = 1_000_000;

    private AnnotationJoiner() {
    }

    /** Counts the (range, interval) pairs taken and the ranges left out past the budget. */
    private static final class Budget {
        final long pairs;
        long taken;
        long leftOut;
        long leftOutPairs;
        String firstLeftOut;

        Budget(DeviceIntervals device) {
            pairs = Math.max(MIN_PAIRS, PAIRS_PER_INTERVAL * device.size());
        }

        /** Whether a range spanning {@code n} intervals is taken; counts it either way. */
        boolean take(long n, String name) {
            if (taken + n <= pairs) {
                taken += n;
                return true;
            }
            if (leftOut++ == 0) {
                firstLeftOut = name;
            }
            leftOutPairs += n;
            return false;
        }

        void report(Warnings warnings, int ranges) {
            if (leftOut > 0) {
                warnings.add("user annotation ranges overlap too much to analyse them all: " + leftOut + " of " + ranges
                        + " ranges left out of the annotation overlap, from '" + firstLeftOut + "' on (the ranges kept span "
                        + taken + " (range, device interval) pairs of the " + pairs + " allowed, " + PAIRS_PER_INTERVAL
                        + " per device interval and at least " + MIN_PAIRS + "; those left out would add " + leftOutPairs + ")");
            }
        }
    }

    /**
     * The annotations, with times shifted by {@code base} (the device intervals are already shifted);
     * ranges left out past the budget are said in {@code warnings}.
     */
    static List<Annotation> join(TraceCollector c, DeviceIntervals device, long base, Warnings warnings) {
        List<Annotation> out = new ArrayList<>();
        Budget budget = new Budget(device);
        if (c.gpuAnnotationNames.size() > 0) {
            LaneCounts lanes = new LaneCounts(device);
            for (int k = 0; k < c.gpuAnnotationNames.size(); k++) {
                int lane = c.existingLane(c.gpuAnnotationDevice.get(k), c.gpuAnnotationStream.get(k));
                long start = c.gpuAnnotationStart.get(k);
                long end = c.gpuAnnotationEnd.get(k);
                if (lane >= 0 && fits(start, base) && fits(end, base)
                        && budget.take(lanes.overlapping(lane, start + base, end + base), c.gpuAnnotationNames.get(k))) {
                    out.add(Annotation.onDevice(c.gpuAnnotationNames.get(k), start + base, end + base, lane));
                }
            }
            budget.report(warnings, c.gpuAnnotationNames.size());
            return out;
        }
        if (c.hostAnnotationNames.isEmpty()) {
            return out;
        }
        Map<Long, int[]> byThread = launchesByThread(device);
        for (int k = 0; k < c.hostAnnotationNames.size(); k++) {
            int[] launched = byThread.get(c.hostAnnotationTid.get(k));
            if (launched == null) {
                continue;
            }
            if (!fits(c.hostAnnotationStart.get(k), base) || !fits(c.hostAnnotationEnd.get(k), base)) {
                continue;
            }
            long start = c.hostAnnotationStart.get(k) + base;
            long end = c.hostAnnotationEnd.get(k) + base;
            int from = firstAtOrAfter(device, launched, start);
            int to = end == Long.MAX_VALUE ? launched.length : firstAtOrAfter(device, launched, end + 1);
            if (to > from && budget.take(to - from, c.hostAnnotationNames.get(k))) {
                int[] mine = Arrays.copyOfRange(launched, from, to);
                Arrays.sort(mine);
                out.add(Annotation.onHost(c.hostAnnotationNames.get(k), start, end, c.hostAnnotationTid.get(k), mine));
            }
        }
        budget.report(warnings, c.hostAnnotationNames.size());
        return out;
    }

    /**
     * Per lane, its intervals' starts and ends, each sorted: the intervals overlapping {@code [a, b)}
     * are those starting before {@code b} less those ending by {@code a} (an interval that ends by
     * {@code a} started before {@code b} too).
     */
    private static final class LaneCounts {
        private final long[][] starts; // by lane
        private final long[][] ends;

        LaneCounts(DeviceIntervals d) {
            int lanes = 0;
            for (int i = 0; i < d.size(); i++) {
                lanes = Math.max(lanes, d.lane(i) + 1);
            }
            int[] count = new int[lanes];
            for (int i = 0; i < d.size(); i++) {
                if (d.lane(i) >= 0) {
                    count[d.lane(i)]++;
                }
            }
            starts = new long[lanes][];
            ends = new long[lanes][];
            for (int l = 0; l < lanes; l++) {
                starts[l] = new long[count[l]];
                ends[l] = new long[count[l]];
            }
            int[] fill = new int[lanes];
            for (int i = 0; i < d.size(); i++) {
                int l = d.lane(i);
                if (l >= 0) {
                    starts[l][fill[l]] = d.start(i);
                    ends[l][fill[l]++] = d.end(i);
                }
            }
            for (int l = 0; l < lanes; l++) {
                Arrays.sort(starts[l]);
                Arrays.sort(ends[l]);
            }
        }

        /** How many of the lane's intervals overlap {@code [a, b)}. */
        long overlapping(int lane, long a, long b) {
            if (lane < 0 || lane >= starts.length) {
                return 0;
            }
            int startingBefore = SortedSearch.firstAtOrAfter(starts[lane], b);
            int endedBy = SortedSearch.lastAtOrBefore(ends[lane], a) + 1;
            return Math.max(0, startingBefore - endedBy);
        }
    }

    /** False when {@code t + base} is out of range (a corrupt range the device work never reaches): left out. */
    private static boolean fits(long t, long base) {
        long sum = t + base;
        return ((t ^ sum) & (base ^ sum)) >= 0;
    }

    /**
     * Per launching thread, the device intervals with a known launch, by launch time (ties in
     * interval order). Primitive lists and a stable merge sort: no boxed index per interval (this
     * ran over every device interval of a 1 GB trace).
     */
    private static Map<Long, int[]> launchesByThread(DeviceIntervals d) {
        Map<Long, IntList> lists = new HashMap<>();
        IntList last = null;
        long lastThread = 0;
        for (int i = 0; i < d.size(); i++) {
            if (Time.isKnown(d.launchNs(i))) {
                long thread = d.launchThread(i);
                if (last == null || thread != lastThread) { // runs of one thread: one map look-up each
                    last = lists.computeIfAbsent(thread, t -> new IntList(16));
                    lastThread = thread;
                }
                last.add(i);
            }
        }
        Map<Long, int[]> out = new HashMap<>();
        lists.forEach((thread, list) -> {
            int[] byLaunch = list.toArray();
            PrimitiveSort.sort(byLaunch, (a, b) -> Long.compare(d.launchNs(a), d.launchNs(b)));
            out.put(thread, byLaunch);
        });
        return out;
    }

    /** The first position in {@code byLaunch} whose launch time is at or after {@code t}. */
    private static int firstAtOrAfter(DeviceIntervals d, int[] byLaunch, long t) {
        int lo = 0;
        int hi = byLaunch.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (d.launchNs(byLaunch[mid]) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
