package io.overlapanalyze.analysis;

import java.util.Arrays;

/**
 * The exact median of ns values, by the totals' rule (even count: mean of the middle two, floored).
 * Not to be confused with {@link io.overlapanalyze.report.Totals.Medians}, the medians a report shows.
 */
public final class ExactMedian {
    private ExactMedian() {
    }

    /** The median of the first {@code n} values ({@code n > 0}); the array is not changed. */
    public static long of(long[] values, int n) {
        long[] v = Arrays.copyOf(values, n);
        Arrays.sort(v);
        if (n % 2 == 1) {
            return v[n / 2];
        }
        long a = v[n / 2 - 1];
        long b = v[n / 2];
        return a + Math.floorDiv(b - a, 2L);
    }
}
