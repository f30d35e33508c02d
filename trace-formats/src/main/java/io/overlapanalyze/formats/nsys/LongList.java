package io.overlapanalyze.formats.nsys;

import java.util.Arrays;

/** A growable {@code long[]}: one column of retained per-row data without boxing. */
final class LongList {
    private long[] data;
    private int size;

    LongList(int initialCapacity) {
        data = new long[Math.max(16, initialCapacity)];
    }

    void add(long v) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = v;
    }

    long get(int i) {
        return data[i];
    }

    int size() {
        return size;
    }

    /** The backing array (valid up to {@link #size()}); no copy. */
    long[] array() {
        return data;
    }

    void clear() {
        size = 0;
    }

    long[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
