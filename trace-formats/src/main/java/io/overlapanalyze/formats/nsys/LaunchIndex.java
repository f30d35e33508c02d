package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.LongList;
import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.Arrays;

/**
 * Runtime/driver launch calls keyed by (process, correlationId): {@code correlationId} is unique
 * only within a process (nsys.md §4; a join on it alone matched 4,280 rows for 4,010 kernels).
 * An open-addressing hash over parallel primitive arrays: no object per call, so millions of
 * launches cost a few dozen bytes each. This is the Java side of the kernel → launch hash join
 * that nsys.md §12 recommends over an SQL join on unindexed tables.
 *
 * <p>The hash keeps runs of 8 consecutive correlationIds of a process in adjacent slots, and each
 * slot holds the low 32 bits of its key: kernels are joined in time order, which is nearly
 * correlationId order, so consecutive probes touch the same cache lines instead of one random
 * line of each column per kernel.
 */
final class LaunchIndex {
    private static final byte COUNTS_AS_LAUNCH = 1;
    private static final byte MATCHED = 2;

    private final LongList process = new LongList(1024);
    private final LongList correlation = new LongList(1024);
    private final LongList start = new LongList(1024);
    private final LongList globalTid = new LongList(1024);
    /** Per row: {@link #COUNTS_AS_LAUNCH} (calls whose missing device work makes a step partial:
     *  kernel, memcpy, graph launches; not memset) and {@link #MATCHED}. */
    private byte[] flags = new byte[1024];
    private int[] slotRow = new int[0];
    private int[] slotKey = new int[0];
    /** Lowest correlationId of each process's runtime and driver calls, launches or not. */
    private final java.util.Map<Long, Long> firstCorrelation = new java.util.HashMap<>();
    private long runProcess = Long.MIN_VALUE;
    private long runMin = Long.MAX_VALUE;

    /**
     * Adds one call. Rows arrive in the export's order (not necessarily time order, nsys.md §9);
     * of several calls with one key the earliest-starting wins (the first read on a tie).
     */
    void add(long processKey, long correlationId, long startNs, long tid, boolean launchesDeviceWork) {
        noteCall(processKey, correlationId);
        if (startNs == Time.UNKNOWN) {
            unknownStarts++;
        }
        int row = process.size();
        process.add(processKey);
        correlation.add(correlationId);
        start.add(startNs);
        globalTid.add(tid);
        if (row == flags.length) {
            flags = Arrays.copyOf(flags, row * 2);
        }
        flags[row] = launchesDeviceWork ? COUNTS_AS_LAUNCH : 0;
    }

    /** Calls added with an unreadable start ({@link Time#UNKNOWN}), for {@link #boundUnknownStarts}. */
    private int unknownStarts;

    /** Builds the hash table; call once after the last {@link #add}. */
    void build() {
        endRun();
        if (unknownStarts > 0) {
            boundUnknownStarts();
        }
        int n = process.size();
        int cap = Integer.highestOneBit(Math.max(16, n * 2 - 1)) << 1;
        slotRow = new int[cap];
        slotKey = new int[cap];
        Arrays.fill(slotRow, -1);
        for (int row = 0; row < n; row++) {
            int s = slot(process.get(row), correlation.get(row));
            int held = slotRow[s];
            if (held < 0) {
                slotRow[s] = row;
                slotKey[s] = (int) correlation.get(row);
            } else if (start.get(row) < start.get(held)) {
                slotRow[s] = row;
            }
        }
    }

    /**
     * A call whose start could not be read (a damaged row) still launched its kernel, and CUPTI
     * issues a process's correlation ids in call order: the call lies between the calls of its
     * process just before and just after it by id. It takes the start of the one before (the
     * earliest it can have been), so that its kernel stays in the step it was launched in instead of
     * being placed by device time (the device runs behind the host: often in the next step). Without
     * a call before it, or when its neighbours disagree with the id order, it stays unknown.
     * One sort of the calls by (process, id), only when some start is unknown.
     */
    private void boundUnknownStarts() {
        int n = process.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        PrimitiveSort.sort(order, (a, b) -> {
            int c = Long.compare(process.get(a), process.get(b));
            return c != 0 ? c : Long.compare(correlation.get(a), correlation.get(b));
        });
        long[] before = new long[n];
        long known = Time.UNKNOWN;
        for (int k = 0; k < n; k++) {
            int row = order[k];
            if (k > 0 && process.get(order[k - 1]) != process.get(row)) {
                known = Time.UNKNOWN;
            }
            before[k] = known;
            if (start.get(row) != Time.UNKNOWN) {
                known = start.get(row);
            }
        }
        long after = Time.UNKNOWN;
        for (int k = n - 1; k >= 0; k--) {
            int row = order[k];
            if (k < n - 1 && process.get(order[k + 1]) != process.get(row)) {
                after = Time.UNKNOWN;
            }
            if (start.get(row) == Time.UNKNOWN) {
                if (before[k] != Time.UNKNOWN && (after == Time.UNKNOWN || before[k] <= after)) {
                    start.set(row, before[k]);
                }
            } else {
                after = start.get(row);
            }
        }
    }

    /** The call with this key, or -1; marks it matched. */
    int match(long processKey, long correlationId) {
        if (slotRow.length == 0) {
            return -1;
        }
        int row = slotRow[slot(processKey, correlationId)];
        if (row >= 0) {
            flags[row] |= MATCHED;
        }
        return row;
    }

    private int slot(long p, long c) {
        int mask = slotRow.length - 1;
        int s = hash(p, c) & mask;
        int low = (int) c;
        while (true) {
            int row = slotRow[s];
            if (row < 0 || (slotKey[s] == low && correlation.get(row) == c && process.get(row) == p)) {
                return s;
            }
            s = (s + 1) & mask;
        }
    }

    /** Blocks of 8 consecutive ids of a process hash together, in order, into adjacent slots. */
    private static int hash(long p, long c) {
        long h = p * 0x9E3779B97F4A7C15L ^ (c >>> 3) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        return (int) (h ^ (h >>> 17)) << 3 | (int) (c & 7);
    }

    /** Notes a runtime or driver call that launches nothing: it still bounds the capture's first id. */
    void noteCall(long processKey, long correlationId) {
        // Calls come in long runs of one process: keep that run's minimum in two fields and touch
        // the (boxing) map only when the process changes.
        if (processKey == runProcess) {
            if (correlationId < runMin) {
                runMin = correlationId;
            }
            return;
        }
        endRun();
        runProcess = processKey;
        runMin = correlationId;
    }

    private void endRun() {
        if (runMin != Long.MAX_VALUE) {
            firstCorrelation.merge(runProcess, runMin, Math::min);
        }
        runMin = Long.MAX_VALUE;
    }

    /**
     * The lowest correlationId among the calls of {@code processKey}, or {@code Long.MIN_VALUE}
     * when it made none (nothing can then be said to come before the first call).
     */
    long firstCorrelation(long processKey) {
        endRun();
        return firstCorrelation.getOrDefault(processKey, Long.MIN_VALUE);
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
        int n = process.size();
        for (int row = 0; row < n; row++) {
            if (flags[row] == COUNTS_AS_LAUNCH && process.get(row) == processKey && start.get(row) != Time.UNKNOWN) {
                out.add(start.get(row));
            }
        }
        long[] a = out.toArray();
        Arrays.sort(a);
        return a;
    }
}
