package io.overlapanalyze.primitives;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrimitiveSortTest {
    @Test
    void byOneKeyIsStable() {
        long[] key = {5, 3, 5, 1, 3};
        // 1 (index 3), then the 3s in index order (1, 4), then the 5s (0, 2).
        assertArrayEquals(new int[] {3, 1, 4, 0, 2}, PrimitiveSort.indexesSortedBy(key, 5));
    }

    @Test
    void byTwoKeysBreaksTiesByTheSecondThenByIndex() {
        long[] start = {10, 10, 5, 10, 5};
        long[] end = {30, 20, 9, 20, 8};
        // (5,8)#4, (5,9)#2, (10,20)#1, (10,20)#3, (10,30)#0
        assertArrayEquals(new int[] {4, 2, 1, 3, 0}, PrimitiveSort.indexesSortedBy(start, end, 5));
    }

    @Test
    void onlyTheFirstNElementsCount() {
        long[] start = {2, 1, 0, -7};
        long[] end = {0, 0, 0, 0};
        assertArrayEquals(new int[] {2, 1, 0}, PrimitiveSort.indexesSortedBy(start, end, 3));
    }

    @Test
    void allThreeSortsAgreeWithTheirDefinitionOnLargeShuffledInput() {
        // Past the insertion-sort runs (32) and with many ties, so the merges are exercised.
        Random random = new Random(18);
        int n = 5_000;
        long[] start = new long[n];
        long[] end = new long[n];
        for (int i = 0; i < n; i++) {
            start[i] = random.nextInt(200);
            end[i] = random.nextInt(5);
        }
        int[] byTwo = PrimitiveSort.indexesSortedBy(start, end, n);
        int[] byOne = PrimitiveSort.indexesSortedBy(start, n);
        int[] byComparator = new int[n];
        for (int i = 0; i < n; i++) {
            byComparator[i] = n - 1 - i; // reversed, so stability is against this order
        }
        PrimitiveSort.sort(byComparator, (a, b) -> Long.compare(start[a], start[b]));
        for (int i = 1; i < n; i++) {
            int a = byTwo[i - 1];
            int b = byTwo[i];
            assertTrue(start[a] < start[b] || start[a] == start[b] && (end[a] < end[b] || end[a] == end[b] && a < b),
                    "two keys at " + i);
            a = byOne[i - 1];
            b = byOne[i];
            assertTrue(start[a] < start[b] || start[a] == start[b] && a < b, "one key at " + i);
            a = byComparator[i - 1];
            b = byComparator[i];
            assertTrue(start[a] < start[b] || start[a] == start[b] && a > b, "comparator at " + i);
        }
        assertTrue(isPermutation(byTwo) && isPermutation(byOne) && isPermutation(byComparator));
    }

    private static boolean isPermutation(int[] a) {
        boolean[] seen = new boolean[a.length];
        for (int v : a) {
            if (v < 0 || v >= a.length || seen[v]) {
                return false;
            }
            seen[v] = true;
        }
        return true;
    }
}
