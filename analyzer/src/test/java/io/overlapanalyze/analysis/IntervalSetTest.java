package io.overlapanalyze.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** IntervalSet algebra against a brute-force bitmap over a small time domain. */
class IntervalSetTest {
    private static final int DOMAIN = 60;

    @Test
    void touchingIntervalsMergeAndNestedOnesVanish() {
        IntervalSet s = IntervalSet.builder().add(2, 4).add(0, 2).add(1, 3).add(10, 20).add(12, 15).add(5, 5).build();
        assertEquals(2, s.size());
        assertEquals(0, s.start(0));
        assertEquals(4, s.end(0));
        assertEquals(10, s.start(1));
        assertEquals(20, s.end(1));
        assertEquals(14, s.length());
        assertTrue(s.contains(0));
        assertTrue(!s.contains(4));
        assertEquals(IntervalSet.of(0, 4), IntervalSet.of(0, 2).union(IntervalSet.of(2, 4)));
    }

    @Test
    void largeAbsoluteTimesDoNotOverflow() {
        long o = TraceBuilder.ORIGIN;
        IntervalSet a = IntervalSet.of(o, o + 3);
        IntervalSet b = IntervalSet.of(o + 2, o + 10);
        assertEquals(1, a.intersectionLength(b));
        assertEquals(2, a.subtract(b).length());
        assertEquals(10, a.union(b).length());
    }

    @Test
    void matchesBruteForceOnRandomIntervals() {
        Random random = new Random(20240404L);
        for (int round = 0; round < 2000; round++) {
            boolean[] ba = new boolean[DOMAIN];
            boolean[] bb = new boolean[DOMAIN];
            IntervalSet a = random(random, ba);
            IntervalSet b = random(random, bb);
            assertSameAs(a, ba);
            assertSameAs(b, bb);
            boolean[] and = new boolean[DOMAIN];
            boolean[] or = new boolean[DOMAIN];
            boolean[] minus = new boolean[DOMAIN];
            for (int t = 0; t < DOMAIN; t++) {
                and[t] = ba[t] && bb[t];
                or[t] = ba[t] || bb[t];
                minus[t] = ba[t] && !bb[t];
            }
            assertSameAs(a.intersect(b), and);
            assertSameAs(a.union(b), or);
            assertSameAs(a.subtract(b), minus);
            assertEquals(count(and), a.intersectionLength(b));
        }
    }

    private static IntervalSet random(Random random, boolean[] bitmap) {
        int n = random.nextInt(8);
        IntervalSet.Builder builder = IntervalSet.builder();
        for (int i = 0; i < n; i++) {
            int s = random.nextInt(DOMAIN);
            int e = s + random.nextInt(12) - 1; // sometimes empty or inverted
            e = Math.min(e, DOMAIN);
            builder.add(s, e);
            for (int t = s; t < e; t++) {
                bitmap[t] = true;
            }
        }
        return builder.build();
    }

    private static void assertSameAs(IntervalSet set, boolean[] bitmap) {
        assertEquals(count(bitmap), set.length(), set.toString());
        for (int t = 0; t < DOMAIN; t++) {
            assertEquals(bitmap[t], set.contains(t), "t=" + t + " in " + set);
        }
        // Canonical form: sorted, non-empty, non-touching runs.
        for (int r = 0; r < set.size(); r++) {
            assertTrue(set.start(r) < set.end(r));
            if (r > 0) {
                assertTrue(set.end(r - 1) < set.start(r), "runs touch: " + set);
            }
        }
    }

    private static int count(boolean[] bitmap) {
        int c = 0;
        for (boolean b : bitmap) {
            c += b ? 1 : 0;
        }
        return c;
    }

    /** The runs of a set as "[s,e) [s,e)", for comparing with what is written by hand. */
    private static String runs(IntervalSet set) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < set.size(); i++) {
            sb.append(i == 0 ? "" : " ").append('[').append(set.start(i)).append(',').append(set.end(i)).append(')');
        }
        return sb.toString();
    }

    @Test
    void aBuilderBuiltAddedToAndBuiltAgainKeepsEverySetItReturned() {
        IntervalSet.Builder b = IntervalSet.builder();
        b.add(50, 60).add(10, 20).add(15, 30).add(40, 40); // out of order, overlapping, one empty
        IntervalSet first = b.build();
        assertEquals("[10,30) [50,60)", runs(first));
        assertEquals("[10,30) [50,60)", runs(b.build()), "built twice: the same union");
        b.add(0, 5).add(25, 55); // before every run, and bridging the two
        IntervalSet second = b.build();
        assertEquals("[0,5) [10,60)", runs(second));
        assertEquals("[10,30) [50,60)", runs(first), "the first set is not changed by later adds");
        for (int i = 0; i < 40; i++) { // grow past the arrays the first sets share
            b.add(100 + 10 * i, 105 + 10 * i);
        }
        IntervalSet third = b.build();
        assertEquals(42, third.size());
        assertEquals("[0,5) [10,60)", runs(second));
        assertEquals("[10,30) [50,60)", runs(first));
    }

    @Test
    void aSetThatKeepsTheBuildersArraysIsNotChangedByLaterAdds() {
        IntervalSet.Builder b = IntervalSet.builder();
        for (int i = 9; i >= 0; i--) { // ten disjoint runs in 16 slots: the set keeps the builder's arrays
            b.add(100 + 10 * i, 105 + 10 * i);
        }
        IntervalSet first = b.build();
        String before = runs(first);
        assertEquals(10, first.size());
        b.add(0, 1).add(2, 3).add(4, 5); // sort before every run: written over shared slots unless copied
        assertEquals(13, b.build().size());
        assertEquals(before, runs(first));
    }

    @Test
    void aUnionOfRawArraysLeavesThemAsTheyWere() {
        long[] starts = {30, 10, 20};
        long[] ends = {40, 15, 35};
        assertEquals("[10,15) [20,40)", runs(IntervalSet.union(starts, ends, 3)));
        assertEquals("[30, 10, 20] [40, 15, 35]", java.util.Arrays.toString(starts) + " " + java.util.Arrays.toString(ends));
    }
}
