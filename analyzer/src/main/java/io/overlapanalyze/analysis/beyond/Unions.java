package io.overlapanalyze.analysis.beyond;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.model.DeviceIntervals;

/** Interval unions of a step's device work (metrics.md §5 rule: an instant counts once). */
final class Unions {
    private Unions() {
    }

    static IntervalSet of(DeviceIntervals dev, int[] intervals) {
        long[] s = new long[intervals.length];
        long[] e = new long[intervals.length];
        for (int j = 0; j < intervals.length; j++) {
            s[j] = dev.start(intervals[j]);
            e[j] = dev.end(intervals[j]);
        }
        return IntervalSet.union(s, e, intervals.length);
    }

    /** The step's device window [first start, last end) over all its intervals. */
    static IntervalSet window(DeviceIntervals dev, int[] all) {
        if (all.length == 0) {
            return IntervalSet.empty();
        }
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int i : all) {
            start = Math.min(start, dev.start(i));
            end = Math.max(end, dev.end(i));
        }
        return IntervalSet.of(start, end);
    }
}
