package io.overlapanalyze.formats.ascend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flow events of a timeline ({@code async_npu}, {@code HostToDevice}): where each flow starts
 * (its id → launching thread and time) and which event it ends at ((pid, tid, ts) → id). Later
 * flows of the same key replace earlier ones (as a map's {@code put} did).
 *
 * <p>A capture holds one flow per device task, so this is a join of millions of rows, and with a
 * hash table every put and every lookup is a cache miss (a quarter of a big capture's read time,
 * more than parsing its JSON on the fast path). So the rows are kept in primitive blocks in file
 * order ({@link Rows}), and joined in bulk at the first lookup, which comes once all flows are
 * known: each key column is sorted, and a lookup searches it from where the previous one ended.
 * Device events, flow ends and flow ids (device start times, or counters) all come in about time
 * order, so most searches take a few steps in memory the previous one touched.
 */
final class FlowIndex {
    static final int ASYNC = 0;
    static final int H2D = 1;

    /** Flow ids that are not plain decimal integers, numbered from {@code Long.MIN_VALUE} up. */
    private final Map<String, Long> otherIds = new HashMap<>();
    /** (pid, tid) text → small index. */
    private final Map<String, Map<String, Integer>> threads = new HashMap<>();
    private String lastPid;
    private String lastTid;
    private int lastThread = -1;

    /** Per kind: flow id → (tid, ts) of its start. */
    private final Rows[] sources = {new Rows(), new Rows()};
    /** Per thread * 2 + kind: ts → id of the flow that ends there. */
    private final List<Rows> targets = new ArrayList<>();

    /**
     * A flow id from its text: the number itself when the text is a canonical decimal integer of up
     * to 18 digits, or a positive one of 19 that fits a {@code long} (torch_npu's ids are epoch
     * nanoseconds: 19 digits). Other texts get numbers from {@code Long.MIN_VALUE} up, which no
     * numeric id reaches.
     */
    long id(char[] buf, int off, int len) {
        long v = numericId(buf, off, len);
        return v != NOT_NUMERIC ? v : otherId(buf, off, len);
    }

    /** What {@link #numericId} gives for a text that is not a numeric id (no numeric id is this low). */
    static final long NOT_NUMERIC = Long.MIN_VALUE;

    /** {@link #id} of a numeric id, else {@link #NOT_NUMERIC}; needs no state. */
    static long numericId(char[] buf, int off, int len) {
        if (len == 0 || len > 19) {
            return NOT_NUMERIC;
        }
        byte[] ascii = new byte[len];
        for (int i = 0; i < len; i++) {
            char c = buf[off + i];
            if (c > '9') {
                return NOT_NUMERIC; // not a digit or '-', whatever the byte form would say
            }
            ascii[i] = (byte) c;
        }
        return numericId(ascii, 0, len);
    }

    /**
     * {@link #numericId(char[], int, int)} of ASCII text as bytes: the fast path computes it from the
     * bytes it scanned, so that a numeric id needs no characters.
     */
    static long numericId(byte[] buf, int off, int len) {
        if (len == 19 && buf[off] >= '1' && buf[off] <= '9') {
            long v = 0;
            for (int i = off; i < off + 19; i++) {
                int c = buf[i];
                if (c < '0' || c > '9') {
                    return NOT_NUMERIC;
                }
                v = v * 10 + (c - '0'); // below 10^19 < 2^64: exact modulo 2^64
            }
            return v >= 0 ? v : NOT_NUMERIC; // negative: above Long.MAX_VALUE
        }
        long v = 0;
        boolean numeric = len > 0 && len <= 18;
        int i = off;
        if (numeric && buf[i] == '-') {
            i++;
            numeric = len > 1;
        }
        if (numeric && buf[i] == '0' && off + len - i > 1) {
            numeric = false; // leading zero: a different text than the number's
        }
        for (; numeric && i < off + len; i++) {
            int c = buf[i];
            if (c < '0' || c > '9') {
                numeric = false;
            } else {
                v = v * 10 + (c - '0');
            }
        }
        if (numeric && !(buf[off] == '-' && v == 0)) {
            return buf[off] == '-' ? -v : v;
        }
        return NOT_NUMERIC;
    }

    private long otherId(char[] buf, int off, int len) {
        String text = new String(buf, off, len);
        Long other = otherIds.get(text);
        if (other == null) {
            other = Long.MIN_VALUE + otherIds.size();
            otherIds.put(text, other);
        }
        return other;
    }

    void start(int kind, long id, long tid, long ts) {
        sources[kind].add(id, tid, ts);
    }

    void end(int kind, String pid, String tid, long ts, long id) {
        int t = thread(pid, tid, true) * 2 + kind;
        while (targets.size() <= t) {
            targets.add(new Rows());
        }
        targets.get(t).add(ts, id, 0);
    }

    /** What {@link #launchOf} returns: one array, reused (it runs once per device event of a capture). */
    private final long[] launch = new long[2];

    /**
     * The launch of the event on (pid, tid) starting at {@code ts}: {@code {tid, ts}} of the flow's
     * start, the framework's {@code async_npu} flow first, else the CANN {@code HostToDevice} one;
     * or null. The array is this index's own, overwritten by the next call.
     */
    long[] launchOf(String pid, String tid, long ts) {
        int t = thread(pid, tid, false);
        if (t < 0) {
            return null;
        }
        for (int kind = ASYNC; kind <= H2D; kind++) {
            Rows ends = t * 2 + kind < targets.size() ? targets.get(t * 2 + kind) : null;
            int target = ends == null ? -1 : ends.find(ts);
            if (target >= 0) {
                Rows starts = sources[kind];
                int source = starts.find(ends.v1(target));
                if (source >= 0) {
                    launch[0] = starts.v1(source);
                    launch[1] = starts.v2(source);
                    return launch;
                }
            }
        }
        return null;
    }

    /** Longs held for flow rows (starts and ends), for a test that they grow with the rows. */
    long rowCapacity() {
        long sum = sources[ASYNC].capacity() + sources[H2D].capacity();
        for (Rows r : targets) {
            sum += r.capacity();
        }
        return sum;
    }

    private int thread(String pid, String tid, boolean create) {
        if (pid == lastPid && tid == lastTid && lastThread >= 0) {
            return lastThread;
        }
        Map<String, Integer> byTid = threads.get(pid);
        Integer idx = byTid == null ? null : byTid.get(tid);
        if (idx == null) {
            if (!create) {
                return -1;
            }
            idx = count++;
            threads.computeIfAbsent(pid, k -> new HashMap<>()).put(tid, idx);
        }
        lastPid = pid;
        lastTid = tid;
        lastThread = idx;
        return idx;
    }

    private int count;

    /**
     * Rows (key, v1, v2) in the order added, and {@link #find}: the last row of a key. Indexed on the
     * first {@code find} after an {@code add}: the distinct keys sorted, each with its last row.
     * The rows are stored in blocks that stay below the size G1 allocates apart (humongous): full
     * blocks are never copied; only the first one starts small and doubles up to a block, as there is
     * one {@code Rows} per thread a flow ends on, and a capture with thousands of device streams of a
     * few tasks each must not cost a block (192 KiB) per stream (10,000 streams: 2 GB).
     */
    private static final class Rows {
        private static final int BLOCK_ROWS = 1 << 13; // (key, v1, v2) × 8192 = 192 KiB
        private static final int FIRST_ROWS = 4;       // the first block's first size
        private long[][] blocks = new long[4][];
        private int size;

        private long[] sorted;   // distinct keys, ascending; null until indexed
        private int distinct;
        private int[] last;      // per distinct key: its last row
        private int finger;      // where the previous search ended

        void add(long key, long a, long b) {
            int block = size / BLOCK_ROWS;
            if (block == blocks.length) {
                blocks = Arrays.copyOf(blocks, block * 2);
            }
            int at = 3 * (size % BLOCK_ROWS);
            if (blocks[block] == null) {
                // A block after the first is made when a full one precedes it: its size is paid for.
                blocks[block] = new long[3 * (block == 0 ? FIRST_ROWS : BLOCK_ROWS)];
            } else if (at == blocks[block].length) {
                blocks[block] = Arrays.copyOf(blocks[block], Math.min(2 * at, 3 * BLOCK_ROWS));
            }
            blocks[block][at] = key;
            blocks[block][at + 1] = a;
            blocks[block][at + 2] = b;
            size++;
            sorted = null;
        }

        /** Longs held for the rows, whatever their number: at most twice theirs, or one small block. */
        long capacity() {
            long sum = 0;
            for (long[] b : blocks) {
                sum += b == null ? 0 : b.length;
            }
            return sum;
        }

        private long column(int row, int column) {
            return blocks[row / BLOCK_ROWS][3 * (row % BLOCK_ROWS) + column];
        }

        /** The last row whose key is {@code key}, or -1. */
        int find(long key) {
            if (sorted == null) {
                index();
            }
            int i = search(key);
            return i < 0 ? -1 : last[i];
        }

        long v1(int row) {
            return column(row, 1);
        }

        long v2(int row) {
            return column(row, 2);
        }

        private void index() {
            sorted = new long[size];
            for (int row = 0; row < size; row++) {
                sorted[row] = column(row, 0);
            }
            Arrays.sort(sorted); // rows come in about key order: sorting merges a few runs
            int n = 0;
            for (int i = 0; i < size; i++) {
                if (n == 0 || sorted[i] != sorted[n - 1]) {
                    sorted[n++] = sorted[i];
                }
            }
            distinct = n;
            last = new int[n];
            finger = 0;
            for (int row = 0; row < size; row++) {
                last[search(column(row, 0))] = row; // in row order: the last row of a key wins
            }
        }

        /**
         * The index of {@code key} among the sorted keys, or -1. Gallops from {@link #finger} (the
         * end of the previous search) to bracket the key, then bisects the bracket: a few steps when
         * lookups come in about key order, twice a binary search's at worst.
         */
        private int search(long key) {
            long[] s = sorted;
            int n = distinct;
            if (n == 0) {
                return -1;
            }
            int f = finger;
            int lo;
            int hi;
            int step = 1;
            if (s[f] <= key) {
                while (f + step < n && s[f + step] <= key) {
                    step <<= 1;
                }
                lo = f + (step >> 1);          // s[lo] <= key
                hi = Math.min(n, f + step);    // s[hi] > key, or the end
            } else {
                while (f - step >= 0 && s[f - step] > key) {
                    step <<= 1;
                }
                lo = Math.max(0, f - step);    // s[lo] <= key, or the start
                hi = f - (step >> 1);          // s[hi] > key
            }
            int i = Arrays.binarySearch(s, lo, hi, key);
            finger = i >= 0 ? i : Math.min(n - 1, -i - 1);
            return i >= 0 ? i : -1;
        }
    }
}
