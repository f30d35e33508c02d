package io.overlapanalyze.analysis.beyond;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.model.DeviceIntervals;

/** The step's device window as an interval set (unions of its work: {@link IntervalSet#unionOf}). */
final class Unions {
    private Unions() {
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
