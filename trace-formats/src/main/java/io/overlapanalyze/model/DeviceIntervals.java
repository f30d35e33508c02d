package io.overlapanalyze.model;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Columnar store of one rank's device intervals {@code [start, end)}. Parallel primitive arrays,
 * grown by doubling, so a rank with millions of kernels costs a few dozen bytes per kernel and no
 * object per kernel.
 *
 * <p>Per interval: start, end, lane, kind, interned name, the host launch time and thread (from
 * launch correlation; {@link Time#UNKNOWN} / {@code -1} when the format has no launch link), and
 * the collective it belongs to ({@code -1} for none), and whether it was launched before the
 * capture began (metrics.md §2: work still running from launches the file does not hold; it
 * belongs to no step). Kernels may carry their launch shape (grid and block, interned in a
 * {@link ShapePool}); the column exists only once a reader sets a shape, so formats without
 * shapes pay nothing for it.
 */
public final class DeviceIntervals {
    private int size;
    private long[] start;
    private long[] end;
    private int[] lane;
    private byte[] kind;
    private int[] name;
    private long[] launchNs;
    private long[] launchThread;
    private int[] collective;
    /** Shape id per interval, -1 when unknown; {@code null} until the first shape is set. */
    private int[] shape;
    private final ShapePool shapes = new ShapePool();
    /** Intervals launched before the capture; a bit set, as they are few or none. */
    private final BitSet preCapture = new BitSet();
    private final StringPool names;

    public DeviceIntervals(StringPool names) {
        this(names, 1024);
    }

    public DeviceIntervals(StringPool names, int initialCapacity) {
        this.names = names;
        int cap = Math.max(16, initialCapacity);
        start = new long[cap];
        end = new long[cap];
        lane = new int[cap];
        kind = new byte[cap];
        name = new int[cap];
        launchNs = new long[cap];
        launchThread = new long[cap];
        collective = new int[cap];
    }

    /** Appends an interval and returns its index. */
    public int add(long startNs, long endNs, int laneIndex, DeviceKind k, String intervalName,
                   long hostLaunchNs, long hostLaunchThread) {
        if (size == start.length) {
            grow();
        }
        int i = size++;
        start[i] = startNs;
        end[i] = endNs;
        lane[i] = laneIndex;
        kind[i] = (byte) k.ordinal();
        name[i] = names.intern(intervalName);
        launchNs[i] = hostLaunchNs;
        launchThread[i] = hostLaunchThread;
        collective[i] = -1;
        return i;
    }

    private void grow() {
        int cap = start.length * 2;
        start = Arrays.copyOf(start, cap);
        end = Arrays.copyOf(end, cap);
        lane = Arrays.copyOf(lane, cap);
        kind = Arrays.copyOf(kind, cap);
        name = Arrays.copyOf(name, cap);
        launchNs = Arrays.copyOf(launchNs, cap);
        launchThread = Arrays.copyOf(launchThread, cap);
        collective = Arrays.copyOf(collective, cap);
        if (shape != null) {
            shape = grownShapes(cap);
        }
    }

    private int[] grownShapes(int cap) {
        int old = shape.length;
        int[] out = Arrays.copyOf(shape, cap);
        if (cap > old) {
            Arrays.fill(out, old, cap, -1);
        }
        return out;
    }

    /**
     * Drops the doubling slack (up to half of each column) once a reader is done adding: what a
     * rank keeps for the analysis is then exactly 45 bytes per interval (49 when the format gives
     * launch shapes).
     */
    public void trimToSize() {
        if (size == start.length) {
            return;
        }
        int cap = Math.max(size, 1);
        start = Arrays.copyOf(start, cap);
        end = Arrays.copyOf(end, cap);
        lane = Arrays.copyOf(lane, cap);
        kind = Arrays.copyOf(kind, cap);
        name = Arrays.copyOf(name, cap);
        launchNs = Arrays.copyOf(launchNs, cap);
        launchThread = Arrays.copyOf(launchThread, cap);
        collective = Arrays.copyOf(collective, cap);
        if (shape != null) {
            shape = grownShapes(cap);
        }
    }

    public int size() {
        return size;
    }

    public long start(int i) {
        return start[i];
    }

    public long end(int i) {
        return end[i];
    }

    public long duration(int i) {
        return end[i] - start[i];
    }

    public int lane(int i) {
        return lane[i];
    }

    public DeviceKind kind(int i) {
        return DeviceKind.ofOrdinal(kind[i]);
    }

    public String name(int i) {
        return names.get(name[i]);
    }

    public int nameId(int i) {
        return name[i];
    }

    public long launchNs(int i) {
        return launchNs[i];
    }

    public long launchThread(int i) {
        return launchThread[i];
    }

    public int collective(int i) {
        return collective[i];
    }

    /**
     * Sets interval {@code i}'s launch shape; dimensions that are not all counts (negative) leave
     * it unknown. Interned: no allocation for a shape seen before.
     */
    public void setShape(int i, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ) {
        if (!KernelShape.valid(gridX, gridY, gridZ, blockX, blockY, blockZ)) {
            return;
        }
        if (shape == null) {
            shape = new int[start.length];
            Arrays.fill(shape, -1);
        }
        shape[i] = shapes.intern(gridX, gridY, gridZ, blockX, blockY, blockZ);
    }

    public void setShape(int i, KernelShape s) {
        if (s != null) {
            setShape(i, s.gridX(), s.gridY(), s.gridZ(), s.blockX(), s.blockY(), s.blockZ());
        }
    }

    /** Interval {@code i}'s launch shape id ({@link #shapeOf} gives the shape), -1 when unknown. */
    public int shapeId(int i) {
        return shape == null ? -1 : shape[i];
    }

    /** Interval {@code i}'s launch shape, {@code null} when the trace does not give it. */
    public KernelShape shape(int i) {
        int id = shapeId(i);
        return id < 0 ? null : shapes.get(id);
    }

    /** The shape of id {@code shapeId} (from {@link #shapeId}). */
    public KernelShape shapeOf(int shapeId) {
        return shapes.get(shapeId);
    }

    public void setKind(int i, DeviceKind k) {
        kind[i] = (byte) k.ordinal();
    }

    public void setCollective(int i, int collectiveId) {
        collective[i] = collectiveId;
    }

    /**
     * Marks interval {@code i} as launched before the capture (metrics.md §2). Readers decide by
     * their format's rule; the analysis leaves such work out of every step.
     */
    public void markPreCapture(int i) {
        preCapture.set(i);
    }

    /**
     * The rule for formats whose launch links carry no correlation id (metrics.md §2): an interval
     * without a launch that ends before the first launch in the file (the earliest known launch
     * time of any interval, or of a launch without device work) was launched before the capture.
     * Marks them; returns how many. Without any known launch nothing is marked.
     */
    public int markEndedBeforeFirstLaunch(long[] launchesWithoutDeviceWork) {
        long first = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            if (launchNs[i] != Time.UNKNOWN) {
                first = Math.min(first, launchNs[i]);
            }
        }
        if (launchesWithoutDeviceWork != null) {
            for (long t : launchesWithoutDeviceWork) {
                first = Math.min(first, t);
            }
        }
        if (first == Long.MAX_VALUE) {
            return 0;
        }
        int marked = 0;
        for (int i = 0; i < size; i++) {
            if (launchNs[i] == Time.UNKNOWN && end[i] < first) {
                preCapture.set(i);
                marked++;
            }
        }
        return marked;
    }

    /** True when interval {@code i} was launched before the capture. */
    public boolean preCapture(int i) {
        return preCapture.get(i);
    }

    /** How many intervals were launched before the capture. */
    public int preCaptureCount() {
        return preCapture.cardinality();
    }

    public void setLaunch(int i, long hostLaunchNs, long hostLaunchThread) {
        launchNs[i] = hostLaunchNs;
        launchThread[i] = hostLaunchThread;
    }

    /** Shifts every time by {@code deltaNs} (used when a trace's time base is only known at its end). */
    public void shiftAll(long deltaNs) {
        for (int i = 0; i < size; i++) {
            start[i] += deltaNs;
            end[i] += deltaNs;
            if (launchNs[i] != Time.UNKNOWN) {
                launchNs[i] += deltaNs;
            }
        }
    }

    public StringPool names() {
        return names;
    }
}
