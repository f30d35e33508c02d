package io.overlapanalyze.primitives;

import java.util.Arrays;

/** A growable {@code long[]}: one column of retained per-event (or per-row) data without boxing. */
public final class LongList {
    private long[] data;
    private int size;

    public LongList(int initialCapacity) {
        data = new long[Math.max(16, initialCapacity)];
    }

    public void add(long v) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = v;
    }

    public long get(int i) {
        return data[i];
    }

    public void set(int i, long v) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        data[i] = v;
    }

    public int size() {
        return size;
    }

    /** The backing array (valid up to {@link #size()}); no copy. */
    public long[] array() {
        return data;
    }

    public void clear() {
        size = 0;
    }

    public long[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
