package io.overlapanalyze.analysis;

/**
 * Stable O(n log n) sorts of {@code int} index arrays by primitive keys, so that millions of
 * device intervals are ordered without boxing one object per interval.
 */
public final class PrimitiveSort {
    private PrimitiveSort() {
    }

    /** Compares two indexes; negative when {@code a} sorts first. */
    @FunctionalInterface
    interface IndexComparator {
        int compare(int a, int b);
    }

    /** {@code 0..n-1} sorted by {@code key}, ties keeping index order. */
    public static int[] indexesSortedBy(long[] key, int n) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        // Traces list device work almost in time order: an ordered input costs one pass.
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = key[i - 1] <= key[i];
        }
        if (!sorted) {
            sort(idx, (a, b) -> Long.compare(key[a], key[b]));
        }
        return idx;
    }

    /** True when {@code idx} is already in {@code cmp} order (then a stable sort would not move anything). */
    static boolean isSorted(int[] idx, IndexComparator cmp) {
        for (int i = 1; i < idx.length; i++) {
            if (cmp.compare(idx[i - 1], idx[i]) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Stable merge sort of {@code idx} in place. */
    static void sort(int[] idx, IndexComparator cmp) {
        int n = idx.length;
        if (n < 2 || isSorted(idx, cmp)) {
            return;
        }
        int[] buf = new int[n];
        int[] src = idx;
        int[] dst = buf;
        // Bottom-up: insertion-sort runs of 32, then merge runs pairwise.
        final int run = 32;
        for (int lo = 0; lo < n; lo += run) {
            int hi = Math.min(lo + run, n);
            for (int i = lo + 1; i < hi; i++) {
                int v = src[i];
                int j = i - 1;
                while (j >= lo && cmp.compare(src[j], v) > 0) {
                    src[j + 1] = src[j];
                    j--;
                }
                src[j + 1] = v;
            }
        }
        for (int width = run; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                if (mid < hi && cmp.compare(src[mid], src[mid - 1]) >= 0) {
                    // The two runs are already in order (common: traces are nearly sorted).
                    System.arraycopy(src, lo, dst, lo, hi - lo);
                    continue;
                }
                while (i < mid && j < hi) {
                    dst[k++] = cmp.compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
                }
                while (i < mid) {
                    dst[k++] = src[i++];
                }
                while (j < hi) {
                    dst[k++] = src[j++];
                }
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != idx) {
            System.arraycopy(src, 0, idx, 0, n);
        }
    }
}
