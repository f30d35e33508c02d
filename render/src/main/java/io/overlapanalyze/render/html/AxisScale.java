package io.overlapanalyze.render.html;

/**
 * A value axis from zero: ticks at a 1, 2 or 5 × 10^k step, as few of them as fit in
 * {@code maxIntervals}, so the axis ends at the smallest such multiple at or above the data's
 * maximum (88 ms ends at 100 ms, 14 ms at 15 ms, never at twice the data). Values are in ns; the
 * step is never below {@code minStep}, the resolution the labels print.
 *
 * @param step      ns between ticks
 * @param intervals ticks after zero; the axis runs to {@code step × intervals}
 */
record AxisScale(long step, int intervals) {
    /** Labels in ms with three decimals show whole microseconds. */
    static final long MICROSECOND = 1_000L;

    AxisScale {
        if (step <= 0 || intervals <= 0) {
            throw new IllegalArgumentException("step and intervals must be positive: " + step + ", " + intervals);
        }
    }

    /** The axis end, ns. */
    long top() {
        return step * intervals;
    }

    /**
     * The axis for data whose largest value is {@code max} ns. No positive value (no data, or all
     * zero) gives one {@code minStep} interval: an axis that says "nothing here" at the labels'
     * resolution rather than a made-up range.
     */
    static AxisScale of(long max, long minStep, int maxIntervals) {
        if (minStep <= 0 || maxIntervals <= 0) {
            throw new IllegalArgumentException("minStep and maxIntervals must be positive");
        }
        if (max <= 0) {
            return new AxisScale(minStep, 1);
        }
        for (long p = 1; p <= Long.MAX_VALUE / 50; p *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                long step = m * p;
                if (step < minStep) {
                    continue;
                }
                long n = max / step + (max % step == 0 ? 0 : 1);
                if (n <= maxIntervals) {
                    return new AxisScale(step, (int) n);
                }
            }
        }
        return new AxisScale(max, 1);
    }

    /** The smallest 1, 2 or 5 × 10^k ns at least {@code raw}: a tick step for a span shown whole. */
    static long niceStep(double raw) {
        long p = 1;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * p >= raw) {
                    return m * p;
                }
            }
            p *= 10;
        }
    }
}
