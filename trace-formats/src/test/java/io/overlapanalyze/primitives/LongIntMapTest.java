package io.overlapanalyze.primitives;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LongIntMapTest {
    @Test
    void putReplacesAndPutIfAbsentKeepsTheFirstValue() {
        LongIntMap m = new LongIntMap();
        m.put(7, 1);
        m.put(7, 2);
        m.putIfAbsent(8, 3);
        m.putIfAbsent(8, 4);
        assertEquals(2, m.get(7));
        assertEquals(3, m.get(8));
        assertEquals(LongIntMap.MISSING, m.get(9));
    }

    @Test
    void theFreeSlotMarkerAndNegativeKeysAreOrdinaryKeys() {
        LongIntMap m = new LongIntMap(4);
        assertEquals(LongIntMap.MISSING, m.get(Long.MIN_VALUE));
        m.put(Long.MIN_VALUE, 5);
        m.put(-1, 6);
        m.put(Long.MAX_VALUE, 7);
        assertEquals(5, m.get(Long.MIN_VALUE));
        assertEquals(6, m.get(-1));
        assertEquals(7, m.get(Long.MAX_VALUE));
        m.put(Long.MIN_VALUE, 8);
        assertEquals(8, m.get(Long.MIN_VALUE));
    }

    @Test
    void growsPastItsFirstTableWithoutLosingKeys() {
        LongIntMap m = new LongIntMap();
        // Keys 1,000 apart, 10,000 of them: many rehashes of the 64-slot start.
        for (int i = 0; i < 10_000; i++) {
            m.put(i * 1_000L, i);
        }
        for (int i = 0; i < 10_000; i++) {
            assertEquals(i, m.get(i * 1_000L));
            assertEquals(LongIntMap.MISSING, m.get(i * 1_000L + 1));
        }
    }

    @Test
    void denseIndexGivesTheFirstRowOfEachKeyAndSkipsTheMarker() {
        // Rows:      0    1   2   3    4   5
        long[] keys = {12, -1, 10, 12, 11, 10};
        LongIntMap index = LongIntMap.indexOf(list(keys), -1);
        assertEquals(2, index.get(10));
        assertEquals(4, index.get(11));
        assertEquals(0, index.get(12));
        assertEquals(LongIntMap.MISSING, index.get(-1));
        assertEquals(LongIntMap.MISSING, index.get(9));
        assertEquals(LongIntMap.MISSING, index.get(13));
        assertThrows(IllegalStateException.class, () -> index.put(13, 0));
    }

    @Test
    void sparseIndexGivesTheSameAnswers() {
        // Span of 3e12 for 4 keys: too wide for the array, a hash table instead.
        long[] keys = {3_000_000_000_000L, 5, 3_000_000_000_000L, -1, 1_000_000_000_000L};
        LongIntMap index = LongIntMap.indexOf(list(keys), -1);
        assertEquals(0, index.get(3_000_000_000_000L));
        assertEquals(1, index.get(5));
        assertEquals(4, index.get(1_000_000_000_000L));
        assertEquals(LongIntMap.MISSING, index.get(-1));
        assertEquals(LongIntMap.MISSING, index.get(6));
    }

    private static LongList list(long[] values) {
        LongList l = new LongList(values.length);
        for (long v : values) {
            l.add(v);
        }
        return l;
    }
}
