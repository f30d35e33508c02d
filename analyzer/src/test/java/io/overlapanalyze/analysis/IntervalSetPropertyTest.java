package io.overlapanalyze.analysis;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Property tests of the interval algebra: union, intersection and difference of random
 * sets of half-open intervals, checked against a brute-force model that marks every nanosecond of
 * a small grid. Each property runs {@link #CASES} seeded random cases (reproducible: the failing
 * case's seed is in the message); inputs include empty, inverted, touching, nested and duplicate
 * intervals, and are shifted by a random epoch-sized origin so nothing assumes times near 0.
 */
class IntervalSetPropertyTest {
    static final int CASES = Integer.getInteger("overlap.property.cases", 2000);
    private static final long SEED = Long.getLong("overlap.property.seed", 0x1D7E_85E7L);
    private static final int GRID = 96;

    /** Raw intervals on a grid [0, GRID), shifted by {@code origin}. */
    private record Raw(long origin, long[] s, long[] e) {
        IntervalSet union() {
            return IntervalSet.union(s, e, s.length);
        }

        boolean[] covered() {
            boolean[] c = new boolean[GRID];
            for (int i = 0; i < s.length; i++) {
                for (long t = s[i]; t < e[i]; t++) {
                    c[(int) (t - origin)] = true;
                }
            }
            return c;
        }
    }

    private static Raw randomRaw(SplittableRandom r, long origin) {
        int n = r.nextInt(0, 9);
        long[] s = new long[n];
        long[] e = new long[n];
        for (int i = 0; i < n; i++) {
            if (i > 0 && r.nextInt(10) == 0) { // duplicate
                s[i] = s[i - 1];
                e[i] = e[i - 1];
                continue;
            }
            int a = r.nextInt(0, GRID);
            int b = switch (r.nextInt(6)) {
                case 0 -> a;                                            // empty
                case 1 -> Math.max(0, a - r.nextInt(1, 10));            // inverted: dropped
                case 2 -> Math.min(GRID, a + r.nextInt(1, 4));          // short, often touching a neighbour
                default -> Math.min(GRID, a + r.nextInt(1, 30));
            };
            if (i > 0 && r.nextInt(8) == 0) { // starts exactly where the previous one ends (touching)
                a = (int) (e[i - 1] - origin);
                b = Math.min(GRID, a + r.nextInt(0, 10));
            }
            s[i] = origin + a;
            e[i] = origin + b;
        }
        return new Raw(origin, s, e);
    }

    private static long origin(SplittableRandom r) {
        return switch (r.nextInt(3)) {
            case 0 -> 0;
            case 1 -> 1_700_000_000_000_000_000L + r.nextLong(1_000_000_000L);
            default -> Long.MAX_VALUE - GRID - r.nextInt(1000); // next to the top of the range
        };
    }

    private static int count(boolean[] c) {
        int n = 0;
        for (boolean b : c) {
            if (b) {
                n++;
            }
        }
        return n;
    }

    /** Sorted, disjoint, non-touching, non-empty runs that cover exactly {@code expected}. */
    private static void assertIs(boolean[] expected, IntervalSet actual, long origin, String what) {
        long prevEnd = Long.MIN_VALUE;
        boolean[] got = new boolean[GRID];
        for (int k = 0; k < actual.size(); k++) {
            long s = actual.start(k);
            long e = actual.end(k);
            assertTrue(s < e, what + ": empty run in " + actual);
            assertTrue(k == 0 || s > prevEnd, what + ": runs not sorted, disjoint and non-touching: " + actual);
            assertTrue(s >= origin && e <= origin + GRID, what + ": run outside the inputs: " + actual);
            for (long t = s; t < e; t++) {
                got[(int) (t - origin)] = true;
            }
            prevEnd = e;
        }
        for (int t = 0; t < GRID; t++) {
            if (got[t] != expected[t]) {
                fail(what + ": at origin+" + t + " expected " + (expected[t] ? "covered" : "not covered") + ", got "
                        + actual + " (origin " + origin + ")");
            }
        }
        assertEquals(count(expected), actual.length(), what + ": length of " + actual);
        assertEquals(actual.size() == 0, actual.isEmpty(), what + ": isEmpty");
    }

    private interface Property {
        void check(SplittableRandom r);
    }

    private static void forAll(String name, Property p) {
        SplittableRandom seeds = new SplittableRandom(SEED ^ name.hashCode());
        for (int i = 0; i < CASES; i++) {
            long seed = seeds.nextLong();
            try {
                p.check(new SplittableRandom(seed));
            } catch (AssertionError e) {
                throw new AssertionError(name + ", case " + i + " (seed " + seed + "): " + e.getMessage(), e);
            }
        }
    }

    @Test
    void unionOfRawIntervalsIsTheCoveredSet() {
        forAll("union-raw", r -> {
            Raw x = randomRaw(r, origin(r));
            IntervalSet u = x.union();
            assertIs(x.covered(), u, x.origin(), "union " + java.util.Arrays.toString(x.s()) + " / "
                    + java.util.Arrays.toString(x.e()));
            IntervalSet.Builder b = IntervalSet.builder();
            for (int i = x.s().length - 1; i >= 0; i--) { // any order
                b.add(x.s()[i], x.e()[i]);
            }
            assertEquals(u, b.build(), "builder in reverse order");
            for (int t = -1; t <= GRID; t++) {
                boolean in = t >= 0 && t < GRID && x.covered()[t];
                assertEquals(in, u.contains(x.origin() + t), "contains(origin+" + t + ") of " + u);
            }
        });
    }

    @Test
    void unionOfTwoSets() {
        forAll("union", r -> {
            long o = origin(r);
            Raw x = randomRaw(r, o);
            Raw y = randomRaw(r, o);
            boolean[] cx = x.covered();
            boolean[] cy = y.covered();
            boolean[] want = new boolean[GRID];
            for (int t = 0; t < GRID; t++) {
                want[t] = cx[t] || cy[t];
            }
            assertIs(want, x.union().union(y.union()), o, "X ∪ Y of " + x.union() + " and " + y.union());
            assertEquals(x.union().union(y.union()), y.union().union(x.union()), "commutative");
        });
    }

    @Test
    void intersectionOfTwoSets() {
        forAll("intersection", r -> {
            long o = origin(r);
            Raw x = randomRaw(r, o);
            Raw y = randomRaw(r, o);
            boolean[] cx = x.covered();
            boolean[] cy = y.covered();
            boolean[] want = new boolean[GRID];
            for (int t = 0; t < GRID; t++) {
                want[t] = cx[t] && cy[t];
            }
            IntervalSet xs = x.union();
            IntervalSet ys = y.union();
            assertIs(want, xs.intersect(ys), o, "X ∩ Y of " + xs + " and " + ys);
            assertEquals(count(want), xs.intersectionLength(ys), "|X ∩ Y| of " + xs + " and " + ys);
            assertEquals(xs.intersectionLength(ys), ys.intersectionLength(xs), "|X ∩ Y| commutative");
        });
    }

    @Test
    void differenceOfTwoSets() {
        forAll("difference", r -> {
            long o = origin(r);
            Raw x = randomRaw(r, o);
            Raw y = randomRaw(r, o);
            boolean[] cx = x.covered();
            boolean[] cy = y.covered();
            boolean[] want = new boolean[GRID];
            for (int t = 0; t < GRID; t++) {
                want[t] = cx[t] && !cy[t];
            }
            IntervalSet xs = x.union();
            IntervalSet ys = y.union();
            IntervalSet d = xs.subtract(ys);
            assertIs(want, d, o, "X − Y of " + xs + " and " + ys);
            // The identity the exposure analysis relies on: |C − K| = |C| − |C ∩ K|.
            assertEquals(xs.length() - xs.intersectionLength(ys), d.length(), "|X − Y| = |X| − |X ∩ Y|");
            // Inclusion-exclusion.
            assertEquals(xs.length() + ys.length() - xs.intersectionLength(ys), xs.union(ys).length(),
                    "|X ∪ Y| = |X| + |Y| − |X ∩ Y|");
        });
    }
}
