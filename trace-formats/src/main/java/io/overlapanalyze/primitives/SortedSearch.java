package io.overlapanalyze.primitives;

/**
 * Binary searches over ascending {@code long} values that may repeat: the first or the last of equal
 * values, where {@link java.util.Arrays#binarySearch} finds any one of them.
 */
public final class SortedSearch {
    private SortedSearch() {
    }

    /** The index of the first value at or after {@code t}, or the array's length. */
    public static int firstAtOrAfter(long[] sorted, long t) {
        return firstAtOrAfter(sorted, sorted.length, t);
    }

    /** The index of the first of {@code sorted[0..n)} at or after {@code t}, or {@code n}. */
    public static int firstAtOrAfter(long[] sorted, int n, long t) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The index of the last value at or before {@code t}, or -1. */
    public static int lastAtOrBefore(long[] sorted, long t) {
        return lastAtOrBefore(sorted, sorted.length, t);
    }

    /** The index of the last of {@code sorted[0..n)} at or before {@code t}, or -1. */
    public static int lastAtOrBefore(long[] sorted, int n, long t) {
        int lo = 0;
        int hi = n;
        while (lo < hi) { // the first index with a value after t lies in [lo, hi]
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }
}
