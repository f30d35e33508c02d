package io.overlapanalyze.primitives;

import java.util.Arrays;

/**
 * A primitive {@code long → int} hash map (open addressing, linear probing), for per-event and
 * per-row lookups without a boxed object each: the Kineto reader joins correlation and External
 * ids with it, the Nsight reader caches string ids and name ids. Every {@code long} is a valid key
 * ({@code Long.MIN_VALUE}, the free-slot marker, is kept beside the table). Not thread-safe.
 *
 * <p>{@link #indexOf} builds a read-only index of row numbers instead; when the keys are dense
 * (profiler ids count up from a start, so nearly every value between the smallest and the largest is
 * used) it is a plain array indexed by {@code key - min}. Lookups in time order then walk the array
 * almost sequentially, where a hash spreads them over the whole table: with millions of rows
 * that is the difference between a cache hit and a miss per lookup.
 */
public final class LongIntMap {
    /** What {@link #get(long)} returns for an absent key. */
    public static final int MISSING = -1;
    private static final long FREE = Long.MIN_VALUE;

    private long[] keys;
    private int[] values;
    private int size;
    private boolean hasFreeKey;
    private int freeKeyValue;
    /** Dense mode ({@link #indexOf}): the value of key k is {@code dense[k - denseMin]}. */
    private int[] dense;
    private long denseMin;

    /**
     * The first row of each key in {@code keys}, skipping the key {@code skip}: {@code get(k)} is the
     * smallest {@code r} with {@code keys.get(r) == k}.
     */
    public static LongIntMap indexOf(LongList keys, long skip) {
        int n = keys.size();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int count = 0;
        for (int r = 0; r < n; r++) {
            long k = keys.get(r);
            if (k != skip) {
                min = Math.min(min, k);
                max = Math.max(max, k);
                count++;
            }
        }
        // Dense when the span is at most 4 slots per key (and fits an array).
        if (count > 0 && max - min >= 0 && max - min < 4L * count + 64 && max - min < Integer.MAX_VALUE - 8) {
            LongIntMap m = new LongIntMap(0);
            m.dense = new int[(int) (max - min + 1)];
            Arrays.fill(m.dense, MISSING);
            m.denseMin = min;
            for (int r = 0; r < n; r++) {
                long k = keys.get(r);
                if (k != skip && m.dense[(int) (k - min)] == MISSING) {
                    m.dense[(int) (k - min)] = r;
                }
            }
            return m;
        }
        LongIntMap m = new LongIntMap(count);
        for (int r = 0; r < n; r++) {
            long k = keys.get(r);
            if (k != skip) {
                m.putIfAbsent(k, r);
            }
        }
        return m;
    }

    /** An empty map of 64 slots, grown by doubling. */
    public LongIntMap() {
        this(32);
    }

    /** An empty map sized for about {@code expected} keys without rehashing. */
    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(keys, FREE);
    }

    /** Stores {@code value} for {@code key} unless the key is already present (first wins). */
    public void putIfAbsent(long key, int value) {
        if (dense != null) {
            throw new IllegalStateException("an index is read-only");
        }
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

    /** Stores {@code value} for {@code key}, replacing the value it had (last wins). */
    public void put(long key, int value) {
        if (dense != null) {
            throw new IllegalStateException("an index is read-only");
        }
        if (key == FREE) {
            hasFreeKey = true;
            freeKeyValue = value;
            return;
        }
        int slot = slot(key);
        if (keys[slot] == key) {
            values[slot] = value;
            return;
        }
        keys[slot] = key;
        values[slot] = value;
        if (++size * 2 > keys.length) {
            rehash();
        }
    }

    /** The value for {@code key}, or {@link #MISSING}. */
    public int get(long key) {
        if (dense != null) {
            long i = key - denseMin;
            return i >= 0 && i < dense.length ? dense[(int) i] : MISSING;
        }
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
