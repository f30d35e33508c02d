package io.overlapanalyze.formats.nsys;


/** An open-addressing {@code long → int} map for per-row lookups without boxing (string ids, keys). */
final class LongIntMap {
    private long[] keys = new long[64];
    private int[] values = new int[64];
    private boolean[] used = new boolean[64];
    private int size;

    /** The value of {@code key}, or {@code missing}. */
    int get(long key, int missing) {
        int mask = keys.length - 1;
        for (int s = hash(key) & mask; used[s]; s = (s + 1) & mask) {
            if (keys[s] == key) {
                return values[s];
            }
        }
        return missing;
    }

    void put(long key, int value) {
        if ((size + 1) * 2 > keys.length) {
            rehash();
        }
        int mask = keys.length - 1;
        int s = hash(key) & mask;
        while (used[s] && keys[s] != key) {
            s = (s + 1) & mask;
        }
        if (!used[s]) {
            used[s] = true;
            keys[s] = key;
            size++;
        }
        values[s] = value;
    }

    private void rehash() {
        long[] k = keys;
        int[] v = values;
        boolean[] u = used;
        keys = new long[k.length * 2];
        values = new int[k.length * 2];
        used = new boolean[k.length * 2];
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (u[i]) {
                put(k[i], v[i]);
            }
        }
    }

    private static int hash(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
