package io.overlapanalyze.formats.input;

import io.overlapanalyze.primitives.SortedSearch;

/**
 * Closed spans {@code [start, end]} of one thread, sorted by start, indexed for the questions a
 * reader asks at a launch: which span encloses this time, outermost or innermost, and which starts
 * within a window. Every query is a binary search or a descent of a tree, so its cost stays
 * logarithmic whatever the spans: however many shorter ones one span encloses, however deep they
 * nest or however they overlap.
 *
 * <p>Positions are those of the sorted order the caller gave; at equal starts a caller that puts
 * the longer span first makes "outermost" the longer and "innermost" the shorter of the two.
 */
public final class SortedSpans {
    private final long[] start;
    private final long[] end;
    /**
     * A tree of maxima of {@code end} over the positions: leaves at {@code leaves + k}, node {@code i}
     * the larger of {@code 2i} and {@code 2i + 1}; leaves past the last span hold
     * {@link Long#MIN_VALUE}. It finds the first position whose span ends at or after a time, and
     * the last such position at or before a given one.
     */
    private final long[] endTree;
    private final int leaves;

    /** Takes the arrays as they are (not copied): {@code start} ascending, {@code end} beside it. */
    public SortedSpans(long[] start, long[] end) {
        if (start.length != end.length) {
            throw new IllegalArgumentException(start.length + " starts for " + end.length + " ends");
        }
        this.start = start;
        this.end = end;
        int n = start.length;
        int size = 1;
        while (size < n) {
            size <<= 1;
        }
        leaves = size;
        endTree = new long[2 * size];
        java.util.Arrays.fill(endTree, size, 2 * size, Long.MIN_VALUE);
        System.arraycopy(end, 0, endTree, size, n);
        for (int i = size - 1; i >= 1; i--) {
            endTree[i] = Math.max(endTree[2 * i], endTree[2 * i + 1]);
        }
    }

    public int size() {
        return start.length;
    }

    public long start(int k) {
        return start[k];
    }

    public long end(int k) {
        return end[k];
    }

    /**
     * The first position whose span contains {@code t} (start ≤ t ≤ end), or -1. The first position
     * whose span ends at or after {@code t} is the only candidate: every earlier one ends before
     * {@code t}, and every later one starts no earlier; it contains {@code t} when it starts by then.
     */
    public int outermostContaining(long t) {
        if (endTree[1] < t) {
            return -1;
        }
        int i = 1;
        while (i < leaves) { // down the leftmost path whose maximum reaches t
            i = endTree[2 * i] >= t ? 2 * i : 2 * i + 1;
        }
        int k = i - leaves;
        return k < start.length && start[k] <= t ? k : -1;
    }

    /**
     * The last position whose span contains {@code t}, or -1: of the spans starting at or before
     * {@code t}, the last that ends at or after it.
     */
    public int innermostContaining(long t) {
        int k = lastStartAtOrBefore(t);
        return k < 0 ? -1 : lastEndingAtOrAfter(k, t);
    }

    /** The last position at or before {@code k} whose span ends at or after {@code t}, or -1. */
    private int lastEndingAtOrAfter(int k, long t) {
        int i = leaves + k;
        if (endTree[i] >= t) {
            return k;
        }
        // Up while the positions left of i's subtree hold no such span; then down the rightmost path that does.
        while (i > 1) {
            if ((i & 1) == 1 && endTree[i - 1] >= t) {
                i--;
                while (i < leaves) {
                    i = endTree[2 * i + 1] >= t ? 2 * i + 1 : 2 * i;
                }
                return i - leaves;
            }
            i >>>= 1;
        }
        return -1;
    }

    /** The first position whose span starts at or after {@code t}, or {@link #size()}. */
    public int firstStartAtOrAfter(long t) {
        return SortedSearch.firstAtOrAfter(start, t);
    }

    /** The last position whose span starts at or before {@code t}, or -1. */
    public int lastStartAtOrBefore(long t) {
        return SortedSearch.lastAtOrBefore(start, t);
    }
}
