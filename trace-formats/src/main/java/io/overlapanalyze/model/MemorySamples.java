package io.overlapanalyze.model;

import java.util.Arrays;

/**
 * The device allocator's running total, one sample per allocation or free the profiler recorded
 * (Kineto {@code [memory]} instants with {@code profile_memory=True}, kineto.md §3.3). Columnar
 * primitive arrays like {@link DeviceIntervals}: a trace has tens of thousands of these and only
 * the per-step maximum is ever asked of them (metrics.md §9 "Memory").
 *
 * <p>Per sample: the host time of the allocator call (ns, the rank's clock), the device's total
 * allocated bytes after the call, and the device index. Only samples of the rank's accelerator
 * type (CUDA / NPU) are kept; CPU allocations are not device memory.
 */
public final class MemorySamples {
    private static final MemorySamples EMPTY = new MemorySamples(0);

    private int size;
    private long[] timeNs;
    private long[] totalAllocated;
    private int[] device;

    public MemorySamples() {
        this(64);
    }

    private MemorySamples(int capacity) {
        timeNs = new long[capacity];
        totalAllocated = new long[capacity];
        device = new int[capacity];
    }

    /** A store with no samples (the trace recorded no allocator events). Do not add to it. */
    public static MemorySamples empty() {
        return EMPTY;
    }

    public void add(long tNs, long totalAllocatedBytes, int deviceIndex) {
        if (this == EMPTY) {
            throw new IllegalStateException("the shared empty store is read-only");
        }
        if (size == timeNs.length) {
            int cap = Math.max(16, size * 2);
            timeNs = Arrays.copyOf(timeNs, cap);
            totalAllocated = Arrays.copyOf(totalAllocated, cap);
            device = Arrays.copyOf(device, cap);
        }
        timeNs[size] = tNs;
        totalAllocated[size] = totalAllocatedBytes;
        device[size] = deviceIndex;
        size++;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long timeNs(int i) {
        return timeNs[i];
    }

    public long totalAllocated(int i) {
        return totalAllocated[i];
    }

    public int device(int i) {
        return device[i];
    }

    /** Shifts every time by {@code deltaNs} (a trace whose time base is known only at its end). */
    public void shiftAll(long deltaNs) {
        for (int i = 0; i < size; i++) {
            timeNs[i] += deltaNs;
        }
    }
}
