package io.overlapanalyze.formats.ascend;

import java.util.Arrays;

/**
 * The device-side events of a timeline, in file order, from the read until they are assembled
 * into ranks ({@code TimelineReader.build}: that needs every flow and every communication stream,
 * known only at the end). Columns, not an object per event: a multi-gigabyte capture holds
 * millions of device tasks, and as objects (80 bytes each, all alive to the end) they cost the
 * collector more than the reading did. A row takes about 53 bytes here; its texts are the shared,
 * interned strings of the reader. What only collectives and overlap events have is in a small
 * {@link Rare} object on their rows.
 */
final class DeviceEventTable {
    static final byte TASK = 0;
    static final byte COLLECTIVE = 1;
    static final byte OVERLAP = 2;

    /** What a collective or an overlap event has that a task does not. */
    record Rare(String dtype, long count, String groupKey, int overlapType) {
    }

    private int size;
    private byte[] role = new byte[1024];
    private int[] device = new int[1024];
    private long[] stream = new long[1024];
    private long[] start = new long[1024];
    private long[] end = new long[1024];
    private String[] pid = new String[1024];
    private String[] tid = new String[1024];
    private String[] lane = new String[1024];
    private String[] name = new String[1024];
    private String[] taskType = new String[1024];
    private Rare[] rare = new Rare[1024];

    /** A hardware task on {@code stream}. */
    void task(int dev, String p, String t, String laneName, long streamId, long from, long to, String taskName,
              String type) {
        add(TASK, dev, p, t, laneName, streamId, from, to, taskName, type, null);
    }

    /** An HCCL operation. */
    void collective(int dev, String p, String t, String laneName, long from, long to, String opName, String dtype,
                    long count, String groupKey) {
        add(COLLECTIVE, dev, p, t, laneName, -1, from, to, opName, null, new Rare(dtype, count, groupKey, -1));
    }

    /** An interval of the "Overlap Analysis" process, of one of RankAssembler's OVERLAP_ types. */
    void overlap(int dev, String p, String t, long from, long to, String eventName, int overlapType) {
        add(OVERLAP, dev, p, t, null, -1, from, to, eventName, null, new Rare(null, -1, null, overlapType));
    }

    private void add(byte r, int dev, String p, String t, String laneName, long streamId, long from, long to,
                     String eventName, String type, Rare extra) {
        if (size == role.length) {
            grow();
        }
        int i = size++;
        role[i] = r;
        device[i] = dev;
        pid[i] = p;
        tid[i] = t;
        lane[i] = laneName;
        stream[i] = streamId;
        start[i] = from;
        end[i] = to;
        name[i] = eventName;
        taskType[i] = type;
        rare[i] = extra;
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
        rare = Arrays.copyOf(rare, n);
    }

    int size() {
        return size;
    }

    byte role(int i) {
        return role[i];
    }

    int device(int i) {
        return device[i];
    }

    String pid(int i) {
        return pid[i];
    }

    String tid(int i) {
        return tid[i];
    }

    String lane(int i) {
        return lane[i];
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
        return name[i];
    }

    String taskType(int i) {
        return taskType[i];
    }

    /** A collective's or an overlap event's other fields; null on a task's row. */
    Rare rare(int i) {
        return rare[i];
    }
}
