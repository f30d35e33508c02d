package io.overlapanalyze.primitives;

import java.util.Arrays;

/** A growable {@code int[]}: one column of buffered per-row data, or a list of indexes, without boxing. */
public final class IntList {
    private int[] data;
    private int size;

    /** An empty list with room for {@code initialCapacity} values (at least 8), grown by doubling. */
    public IntList(int initialCapacity) {
        data = new int[Math.max(8, initialCapacity)];
    }

    public void add(int v) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = v;
    }

    public int get(int i) {
        return data[i];
    }

    public int size() {
        return size;
    }

    /** A copy of the values, exactly {@link #size()} long. */
    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
