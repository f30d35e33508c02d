package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.StringPool;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The device-side events of a timeline, in file order, from the read until they are assembled
 * into ranks ({@code TimelineCollector.build}: that needs every flow and every communication stream,
 * known only at the end). Columns of primitives, not an object per event: a multi-gigabyte
 * capture holds millions of device tasks, and as objects (80 bytes each, all alive to the end),
 * or even as columns of references, they cost the collector more than the reading did (a full
 * collection traces every reference; it skips arrays of numbers). Texts are codes in a
 * {@link StringPool} (a few thousand distinct names, pids and lanes); a row takes 45 bytes. What
 * only collectives and overlap events have is in a small {@link Rare} object, by row.
 */
final class DeviceEventTable {
    static final byte TASK = 0;
    static final byte COLLECTIVE = 1;
    static final byte OVERLAP = 2;

    /** What a collective or an overlap event has that a task does not. */
    record Rare(String dtype, long count, String groupKey, int overlapType) {
    }

    private final StringPool texts = new StringPool();
    private final Map<Integer, Rare> rare = new HashMap<>();
    private int size;
    private byte[] role = new byte[1024];
    private int[] device = new int[1024];
    private long[] stream = new long[1024];
    private long[] start = new long[1024];
    private long[] end = new long[1024];
    private int[] pid = new int[1024];
    private int[] tid = new int[1024];
    private int[] lane = new int[1024];
    private int[] name = new int[1024];
    private int[] taskType = new int[1024];

    /** A hardware task on {@code stream}. */
    void task(String p, String t, String laneName, long streamId, long from, long to, String taskName,
              String type) {
        add(TASK, p, t, laneName, streamId, from, to, taskName, type);
    }

    /** An HCCL operation. */
    void collective(String p, String t, String laneName, long from, long to, String opName, String dtype,
                    long count, String groupKey) {
        rare.put(size, new Rare(dtype, count, groupKey, -1));
        add(COLLECTIVE, p, t, laneName, -1, from, to, opName, null);
    }

    /** An interval of the "Overlap Analysis" process, of one of RankAssembler's OVERLAP_ types. */
    void overlap(String p, String t, long from, long to, String eventName, int overlapType) {
        rare.put(size, new Rare(null, -1, null, overlapType));
        add(OVERLAP, p, t, null, -1, from, to, eventName, null);
    }

    private void add(byte r, String p, String t, String laneName, long streamId, long from, long to,
                     String eventName, String type) {
        if (size == role.length) {
            grow();
        }
        int i = size++;
        role[i] = r;
        pid[i] = code(p);
        tid[i] = code(t);
        lane[i] = code(laneName);
        stream[i] = streamId;
        start[i] = from;
        end[i] = to;
        name[i] = code(eventName);
        taskType[i] = code(type);
    }

    private int code(String text) {
        return text == null ? -1 : texts.intern(text);
    }

    private String text(int code) {
        return code < 0 ? null : texts.get(code);
    }

    private void grow() {
        int n = role.length * 2;
        role = Arrays.copyOf(role, n);
        device = Arrays.copyOf(device, n);
        stream = Arrays.copyOf(stream, n);
        start = Arrays.copyOf(start, n);
        end = Arrays.copyOf(end, n);
        pid = Arrays.copyOf(pid, n);
        tid = Arrays.copyOf(tid, n);
        lane = Arrays.copyOf(lane, n);
        name = Arrays.copyOf(name, n);
        taskType = Arrays.copyOf(taskType, n);
    }

    int size() {
        return size;
    }

    byte role(int i) {
        return role[i];
    }

    /** The device of row {@code i}, once {@link #assignDevices} has run. */
    int device(int i) {
        return device[i];
    }

    /** The distinct pids of the rows, in order of first appearance. */
    java.util.Set<String> pids() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        boolean[] seen = new boolean[texts.size()];
        for (int i = 0; i < size; i++) {
            int c = pid[i];
            if (c >= 0 && !seen[c]) {
                seen[c] = true;
                out.add(texts.get(c));
            }
        }
        return out;
    }

    /**
     * Sets every row's device from its pid: which device a process belongs to depends on the
     * metadata of every process in the file, known only at the end of the read.
     */
    void assignDevices(java.util.function.ToIntFunction<String> deviceOfPid) {
        int[] byCode = new int[texts.size()];
        boolean[] known = new boolean[byCode.length];
        for (int i = 0; i < size; i++) {
            int c = pid[i];
            if (c < 0) {
                device[i] = 0;
                continue;
            }
            if (!known[c]) {
                byCode[c] = deviceOfPid.applyAsInt(texts.get(c));
                known[c] = true;
            }
            device[i] = byCode[c];
        }
    }

    String pid(int i) {
        return text(pid[i]);
    }

    String tid(int i) {
        return text(tid[i]);
    }

    String lane(int i) {
        return text(lane[i]);
    }

    long stream(int i) {
        return stream[i];
    }

    long start(int i) {
        return start[i];
    }

    long end(int i) {
        return end[i];
    }

    String name(int i) {
        return text(name[i]);
    }

    String taskType(int i) {
        return text(taskType[i]);
    }

    /** A collective's or an overlap event's other fields; null on a task's row. */
    Rare rare(int i) {
        return rare.get(i);
    }
}
