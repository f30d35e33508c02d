package io.overlapanalyze.formats.nsys;

import java.util.Arrays;

/** A growable {@code int[]}: one column of buffered per-row data without boxing. */
final class IntList {
    private int[] data;
    private int size;

    IntList(int initialCapacity) {
        data = new int[Math.max(16, initialCapacity)];
    }

    void add(int v) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = v;
    }

    int get(int i) {
        return data[i];
    }

    int size() {
        return size;
    }
}
