package io.overlapanalyze.formats.kineto;

import java.util.Arrays;

/**
 * A primitive {@code long → int} hash map (open addressing, linear probing), for joining
 * correlation and External ids without a boxed object per event.
 */
final class LongIntMap {
    static final int MISSING = -1;
    private static final long FREE = Long.MIN_VALUE;

    private long[] keys;
    private int[] values;
    private int size;
    private boolean hasFreeKey;
    private int freeKeyValue;

    LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(keys, FREE);
    }

    /** Stores {@code value} for {@code key} unless the key is already present (first wins). */
    void putIfAbsent(long key, int value) {
        if (key == FREE) {
            if (!hasFreeKey) {
                hasFreeKey = true;
                freeKeyValue = value;
            }
            return;
        }
        int slot = slot(key);
        if (keys[slot] == key) {
            return;
        }
        keys[slot] = key;
        values[slot] = value;
        if (++size * 2 > keys.length) {
            rehash();
        }
    }

    /** The value for {@code key}, or {@link #MISSING}. */
    int get(long key) {
        if (key == FREE) {
            return hasFreeKey ? freeKeyValue : MISSING;
        }
        int slot = slot(key);
        return keys[slot] == key ? values[slot] : MISSING;
    }

    private int slot(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (keys[i] != FREE && keys[i] != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private void rehash() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(keys, FREE);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != FREE) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                values[slot] = oldValues[i];
            }
        }
    }
}
