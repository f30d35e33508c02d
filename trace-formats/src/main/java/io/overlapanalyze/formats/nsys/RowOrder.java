package io.overlapanalyze.formats.nsys;

/**
 * The order of buffered rows by (start, end, read position): a stable merge sort of row indexes
 * over two primitive key columns, O(n log n) time, 24 bytes a row of temporary memory (indexes and
 * starts, twice) and no object per row. Rows that already arrive in order (the usual case: nsys writes each table roughly in
 * time order, but does not promise it, nsys.md §9) cost one linear pass.
 */
final class RowOrder {
    private static final int INSERTION = 32;

    private RowOrder() {
    }

    /** Row indexes {@code 0..n-1} ordered by {@code start}, then {@code end}, then index. */
    static int[] of(long[] start, long[] end, int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (sorted(start, end, n)) {
            return order;
        }
        long[] keys = java.util.Arrays.copyOf(start, n);
        sort(order, keys, new int[n], new long[n], 0, n, end);
        return order;
    }

    /** Row indexes ordered by {@code start}, then {@code end} descending, then index (NVTX parents first). */
    static int[] ofParentsFirst(long[] start, long[] end, int n) {
        long[] negEnd = new long[n];
        for (int i = 0; i < n; i++) {
            negEnd[i] = end[i] == Long.MIN_VALUE ? Long.MAX_VALUE : -end[i];
        }
        return of(start, negEnd, n);
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
     * Merge sort of row indexes {@code a} that carries each row's start along in {@code k}, so that
     * comparisons read the two arrays in sequence instead of {@code start[]} at random (rows in no
     * order at all would otherwise cost a cache miss per comparison); {@code end} and the index only
     * break ties.
     */
    private static void sort(int[] a, long[] k, int[] ta, long[] tk, int from, int to, long[] e) {
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
        sort(a, k, ta, tk, from, mid, e);
        sort(a, k, ta, tk, mid, to, e);
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

    /** Row {@code x} (start {@code kx}) sorts before row {@code y} (start {@code ky}). */
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
