package io.overlapanalyze.formats.nsys;

/**
 * The order of buffered rows by (start, end, read position): a stable merge sort of row indexes
 * over two primitive key columns, O(n log n) time, two {@code int[]} of extra memory and no object
 * per row. Rows that already arrive in order (the usual case: nsys writes each table roughly in
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
        int[] tmp = new int[n];
        sort(order, tmp, 0, n, start, end);
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

    private static boolean less(int a, int b, long[] s, long[] e) {
        long sa = s[a];
        long sb = s[b];
        if (sa != sb) {
            return sa < sb;
        }
        long ea = e[a];
        long eb = e[b];
        if (ea != eb) {
            return ea < eb;
        }
        return a < b;
    }

    /** Sorts {@code a[from, to)} (stable because indexes break ties). */
    private static void sort(int[] a, int[] tmp, int from, int to, long[] s, long[] e) {
        if (to - from <= INSERTION) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && less(v, a[j], s, e)) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, tmp, from, mid, s, e);
        sort(a, tmp, mid, to, s, e);
        if (!less(a[mid], a[mid - 1], s, e)) {
            return; // the halves are already in order
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && !less(tmp[j], tmp[i], s, e))) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }
}
