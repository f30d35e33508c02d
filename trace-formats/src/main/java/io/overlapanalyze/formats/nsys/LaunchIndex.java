package io.overlapanalyze.formats.nsys;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Runtime/driver launch calls keyed by (process, correlationId): {@code correlationId} is unique
 * only within a process (nsys.md §4; a join on it alone matched 4,280 rows for 4,010 kernels).
 * An open-addressing hash over parallel primitive arrays: no object per call, so millions of
 * launches cost a few dozen bytes each. This is the Java side of the kernel → launch hash join
 * that nsys.md §12 recommends over an SQL join on unindexed tables.
 */
final class LaunchIndex {
    private final LongList process = new LongList(1024);
    private final LongList correlation = new LongList(1024);
    private final LongList start = new LongList(1024);
    private final LongList globalTid = new LongList(1024);
    /** Calls whose missing device work makes a step partial (kernel, memcpy, graph launches; not memset). */
    private final BitSet countsAsLaunch = new BitSet();
    private final BitSet matched = new BitSet();
    private int[] slots = new int[0];

    /**
     * Adds one call. Rows arrive in the export's order (not necessarily time order, nsys.md §9);
     * of several calls with one key the earliest-starting wins (the first read on a tie).
     */
    void add(long processKey, long correlationId, long startNs, long tid, boolean launchesDeviceWork) {
        int row = process.size();
        process.add(processKey);
        correlation.add(correlationId);
        start.add(startNs);
        globalTid.add(tid);
        if (launchesDeviceWork) {
            countsAsLaunch.set(row);
        }
    }

    /** Builds the hash table; call once after the last {@link #add}. */
    void build() {
        int n = process.size();
        int cap = Integer.highestOneBit(Math.max(4, n * 2 - 1)) << 1;
        slots = new int[cap];
        Arrays.fill(slots, -1);
        for (int row = 0; row < n; row++) {
            int s = slot(process.get(row), correlation.get(row));
            int held = slots[s];
            if (held < 0 || start.get(row) < start.get(held)) {
                slots[s] = row;
            }
        }
    }

    /** The call with this key, or -1; marks it matched. */
    int match(long processKey, long correlationId) {
        if (slots.length == 0) {
            return -1;
        }
        int s = slot(processKey, correlationId);
        int row = slots[s];
        if (row >= 0) {
            matched.set(row);
        }
        return row;
    }

    private int slot(long p, long c) {
        int mask = slots.length - 1;
        int s = hash(p, c) & mask;
        while (true) {
            int row = slots[s];
            if (row < 0 || (process.get(row) == p && correlation.get(row) == c)) {
                return s;
            }
            s = (s + 1) & mask;
        }
    }

    private static int hash(long p, long c) {
        long h = p * 0x9E3779B97F4A7C15L ^ c * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        return (int) (h ^ (h >>> 17));
    }

    long start(int row) {
        return start.get(row);
    }

    long globalTid(int row) {
        return globalTid.get(row);
    }

    int size() {
        return process.size();
    }

    /**
     * Start times, in start order, of the calls of {@code processKey} that launch device work and
     * matched no device row: the "launch without device activity" of metrics.md §2.
     */
    long[] unmatchedLaunches(long processKey) {
        LongList out = new LongList(16);
        for (int row = countsAsLaunch.nextSetBit(0); row >= 0; row = countsAsLaunch.nextSetBit(row + 1)) {
            if (!matched.get(row) && process.get(row) == processKey) {
                out.add(start.get(row));
            }
        }
        long[] a = out.toArray();
        Arrays.sort(a);
        return a;
    }
}
