package io.overlapanalyze.formats.ascend;

import java.util.HashMap;
import java.util.Map;

/**
 * The flow events of a timeline ({@code async_npu}, {@code HostToDevice}): where each flow starts
 * (its id → launching thread and time) and which event it ends at ((pid, tid, ts) → id). Primitive
 * open-address tables, no object per flow: a capture holds one flow per device task. Later flows of
 * the same key replace earlier ones (as a map's {@code put} did).
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

    private final Table sources = new Table();   // (kind, id) → (tid, ts)
    private final Table targets = new Table();   // (thread * 2 + kind, ts) → id

    /** A flow id from its text: the number itself when the text is a canonical decimal integer. */
    long id(char[] buf, int off, int len) {
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
            char c = buf[i];
            if (c < '0' || c > '9') {
                numeric = false;
            } else {
                v = v * 10 + (c - '0');
            }
        }
        if (numeric && !(buf[off] == '-' && v == 0)) {
            return buf[off] == '-' ? -v : v;
        }
        String text = new String(buf, off, len);
        Long other = otherIds.get(text);
        if (other == null) {
            other = Long.MIN_VALUE + otherIds.size();
            otherIds.put(text, other);
        }
        return other;
    }

    void start(int kind, long id, long tid, long ts) {
        sources.put(kind, id, tid, ts);
    }

    void end(int kind, String pid, String tid, long ts, long id) {
        targets.put(thread(pid, tid, true) * 2L + kind, ts, id, 0);
    }

    /**
     * The launch of the event on (pid, tid) starting at {@code ts}: {@code {tid, ts}} of the flow's
     * start, the framework's {@code async_npu} flow first, else the CANN {@code HostToDevice} one.
     */
    long[] launchOf(String pid, String tid, long ts) {
        int t = thread(pid, tid, false);
        if (t < 0) {
            return null;
        }
        for (int kind = ASYNC; kind <= H2D; kind++) {
            int target = targets.find(t * 2L + kind, ts);
            if (target >= 0) {
                int source = sources.find(kind, targets.v1(target));
                if (source >= 0) {
                    return new long[] {sources.v1(source), sources.v2(source)};
                }
            }
        }
        return null;
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
     * (long, long) → (long, long), open addressing, last put wins. One interleaved {@code long[]}
     * (key, key, value, value per slot) so that a probe touches one cache line, not five arrays.
     * The first key is never negative, so -1 marks an empty slot.
     */
    private static final class Table {
        private static final int W = 4;
        long[] slots = empty(256);
        int size;

        private static long[] empty(int capacity) {
            long[] a = new long[capacity * W];
            for (int i = 0; i < a.length; i += W) {
                a[i] = -1;
            }
            return a;
        }

        void put(long a, long b, long x, long y) {
            if ((size + 1) * 2 * W > slots.length) {
                grow();
            }
            int s = slot(a, b);
            if (slots[s] < 0) {
                slots[s] = a;
                slots[s + 1] = b;
                size++;
            }
            slots[s + 2] = x;
            slots[s + 3] = y;
        }

        /** The slot of the key (an index for {@link #v1}, {@link #v2}), or -1. */
        int find(long a, long b) {
            int s = slot(a, b);
            return slots[s] < 0 ? -1 : s;
        }

        long v1(int s) {
            return slots[s + 2];
        }

        long v2(int s) {
            return slots[s + 3];
        }

        private int slot(long a, long b) {
            int mask = slots.length / W - 1;
            long h = (a + 1) * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL;
            int s = (int) (h ^ (h >>> 29) ^ (h >>> 47)) & mask;
            while (true) {
                int at = s * W;
                long k = slots[at];
                if (k < 0 || (k == a && slots[at + 1] == b)) {
                    return at;
                }
                s = (s + 1) & mask;
            }
        }

        private void grow() {
            long[] old = slots;
            slots = empty(old.length / W * 2);
            size = 0;
            for (int i = 0; i < old.length; i += W) {
                if (old[i] >= 0) {
                    put(old[i], old[i + 1], old[i + 2], old[i + 3]);
                }
            }
        }
    }
}
