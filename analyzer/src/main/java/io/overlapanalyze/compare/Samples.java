package io.overlapanalyze.compare;

import org.apache.commons.math3.stat.inference.MannWhitneyUTest;

import java.util.Arrays;

/**
 * The values of one metric over a run's aggregated (rank, step) pairs, with the exact median and
 * the significance test of two such sets.
 *
 * <p>Integral metrics keep exact {@code long} values; the median of an even count is the lower
 * middle plus half the gap, rounded down, as the analysis totals do. The Mann-Whitney test works
 * on ranks, so converting to {@code double} for it loses nothing that matters (order is kept for
 * any value below 2^53 ns, about 104 days).
 */
public final class Samples {
    /**
     * Smallest sample count on each side for which a verdict is given. With 5 against 5, a
     * complete separation gives p ≈ 0.009 under the normal approximation; with fewer, even a
     * complete separation is hardly distinguishable from chance, so no verdict is honest.
     */
    public static final int MIN_FOR_TEST = 5;

    private final MetricUnit unit;
    private final long[] longs;
    private final double[] doubles;

    private Samples(MetricUnit unit, long[] longs, double[] doubles) {
        this.unit = unit;
        this.longs = longs;
        this.doubles = doubles;
    }

    /** Integral samples (ns, counts, bytes). */
    public static Samples ofLongs(MetricUnit unit, long[] values) {
        if (!unit.integral()) {
            throw new IllegalArgumentException(unit + " is not integral");
        }
        long[] v = values.clone();
        Arrays.sort(v);
        return new Samples(unit, v, null);
    }

    /** Ratio samples. */
    public static Samples ofDoubles(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return new Samples(MetricUnit.RATIO, null, v);
    }

    public int size() {
        return longs != null ? longs.length : doubles.length;
    }

    public MetricUnit unit() {
        return unit;
    }

    /** The median ({@code Long} or {@code Double}), or {@code null} when empty. */
    public Number median() {
        int n = size();
        if (n == 0) {
            return null;
        }
        if (longs != null) {
            if (n % 2 == 1) {
                return longs[n / 2];
            }
            long a = longs[n / 2 - 1];
            long b = longs[n / 2];
            return a + Math.floorDiv(b - a, 2L);
        }
        return n % 2 == 1 ? doubles[n / 2] : (doubles[n / 2 - 1] + doubles[n / 2]) / 2.0;
    }

    double[] asDoubles() {
        if (doubles != null) {
            return doubles.clone();
        }
        double[] d = new double[longs.length];
        for (int i = 0; i < longs.length; i++) {
            d[i] = longs[i];
        }
        return d;
    }

    /** True when both sides have enough samples for a verdict. */
    public static boolean testable(Samples a, Samples b) {
        return a.size() >= MIN_FOR_TEST && b.size() >= MIN_FOR_TEST;
    }

    /**
     * Two-sided Mann-Whitney U p-value (commons-math3, normal approximation; no tie correction,
     * which makes it conservative when many values are tied, e.g. counts). {@code null} when
     * either side has fewer than {@link #MIN_FOR_TEST} samples. Two identical sets give 1.
     */
    public static Double mannWhitneyP(Samples a, Samples b) {
        if (!testable(a, b)) {
            return null;
        }
        double p = new MannWhitneyUTest().mannWhitneyUTest(a.asDoubles(), b.asDoubles());
        // The approximation can exceed 1 by rounding at z = 0; a p-value never does.
        return Math.min(1.0, p);
    }
}
