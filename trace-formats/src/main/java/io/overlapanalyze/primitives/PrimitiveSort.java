package io.overlapanalyze.primitives;

import java.util.Arrays;

/**
 * Stable O(n log n) sorts of {@code int} index arrays by primitive keys, so that millions of
 * device intervals or buffered rows are ordered without boxing one object per element. Every sort
 * first checks for order: traces list their work almost in time order, and an ordered input then
 * costs one linear pass.
 *
 * <p>Two algorithms, for two access patterns: {@link #sort} takes any comparator of indexes
 * (bottom-up merge sort, merging skipped where two runs are already in order);
 * {@link #indexesSortedBy(long[], long[], int)} sorts by two key columns and carries the first key
 * along with the indexes, so that comparisons read two arrays in sequence instead of the key
 * column at random (rows in no order at all would otherwise cost a cache miss per comparison).
 */
public final class PrimitiveSort {
    private PrimitiveSort() {
    }

    /** Compares two indexes; negative when {@code a} sorts first. */
    @FunctionalInterface
    public interface IndexComparator {
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
    private static boolean isSorted(int[] idx, IndexComparator cmp) {
        for (int i = 1; i < idx.length; i++) {
            if (cmp.compare(idx[i - 1], idx[i]) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Stable merge sort of {@code idx} in place. */
    public static void sort(int[] idx, IndexComparator cmp) {
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

    private static final int INSERTION = 32;

    /**
     * Indexes {@code 0..n-1} ordered by {@code key}, then {@code tieBreak}, then index: a stable
     * top-down merge sort over the two primitive columns, 24 bytes an element of temporary memory
     * (indexes and keys, twice).
     */
    public static int[] indexesSortedBy(long[] key, long[] tieBreak, int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (sorted(key, tieBreak, n)) {
            return order;
        }
        long[] keys = Arrays.copyOf(key, n);
        sortCarryingKeys(order, keys, new int[n], new long[n], 0, n, tieBreak);
        return order;
    }

    private static boolean sorted(long[] s, long[] e, int n) {
        for (int i = 1; i < n; i++) {
            if (s[i] < s[i - 1] || (s[i] == s[i - 1] && e[i] < e[i - 1])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Merge sort of indexes {@code a} that carries each element's key along in {@code k};
     * {@code e} and the index only break ties.
     */
    private static void sortCarryingKeys(int[] a, long[] k, int[] ta, long[] tk, int from, int to, long[] e) {
        if (to - from <= INSERTION) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                long kv = k[i];
                int j = i - 1;
                while (j >= from && before(kv, v, k[j], a[j], e)) {
                    a[j + 1] = a[j];
                    k[j + 1] = k[j];
                    j--;
                }
                a[j + 1] = v;
                k[j + 1] = kv;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sortCarryingKeys(a, k, ta, tk, from, mid, e);
        sortCarryingKeys(a, k, ta, tk, mid, to, e);
        if (!before(k[mid], a[mid], k[mid - 1], a[mid - 1], e)) {
            return; // the halves are already in order
        }
        System.arraycopy(a, from, ta, from, to - from);
        System.arraycopy(k, from, tk, from, to - from);
        int i = from;
        int j = mid;
        for (int o = from; o < to; o++) {
            if (j >= to || (i < mid && !before(tk[j], ta[j], tk[i], ta[i], e))) {
                a[o] = ta[i];
                k[o] = tk[i++];
            } else {
                a[o] = ta[j];
                k[o] = tk[j++];
            }
        }
    }

    /** Element {@code x} (key {@code kx}) sorts before element {@code y} (key {@code ky}). */
    private static boolean before(long kx, int x, long ky, int y, long[] e) {
        if (kx != ky) {
            return kx < ky;
        }
        long ex = e[x];
        long ey = e[y];
        if (ex != ey) {
            return ex < ey;
        }
        return x < y;
    }
}
