package io.overlapanalyze.analysis;

import java.util.Arrays;

/** Exact medians of ns values, the same rule as the totals (even count: mean of the middle two, floored). */
public final class Medians {
    private Medians() {
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
