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
        sort(idx, (a, b) -> Long.compare(key[a], key[b]));
        return idx;
    }

    /** Stable merge sort of {@code idx} in place. */
    static void sort(int[] idx, IndexComparator cmp) {
        int n = idx.length;
        if (n < 2) {
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
