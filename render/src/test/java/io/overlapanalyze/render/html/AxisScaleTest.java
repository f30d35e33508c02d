package io.overlapanalyze.render.html;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The value axis ends at the smallest multiple of a 1-2-5 step at or above the data's maximum,
 * with at most five intervals. Expected values by hand: for 88 ms a 10 ms step needs 9 intervals,
 * 20 ms needs 5, so the axis is 0, 20, …, 100 ms.
 */
class AxisScaleTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;

    @ParameterizedTest(name = "{0} ns -> step {1} x {2}")
    @CsvSource({
            // 88 ms: 10 ms x 9 is too many, 20 ms x 5 = 100 ms (not 200 ms).
            "88000000, 20000000, 5",
            // 14 ms: 2 ms x 7 too many, 5 ms x 3 = 15 ms (not 40 ms).
            "14000000, 5000000, 3",
            // 0.37 ms: 0.1 ms x 4 = 0.4 ms.
            "370000, 100000, 4",
            // Exact powers of ten end where the data ends.
            "100000000, 20000000, 5",
            "1000000, 200000, 5",
            "10000, 2000, 5",
            "1000000000, 200000000, 5",
            // Just above a power of ten: 10.001 ms needs 5 ms x 3 = 15 ms.
            "10001000, 5000000, 3",
            // 7 ms: 1 ms x 7 too many, 2 ms x 4 = 8 ms.
            "7000000, 2000000, 4",
            // Below the labels' resolution: one 1 µs interval.
            "300, 1000, 1",
    })
    void endsAtTheSmallestRoundValueAtOrAboveTheMaximum(long max, long step, int intervals) {
        AxisScale a = AxisScale.of(max, US, 5);
        assertEquals(new AxisScale(step, intervals), a);
        assertEquals(step * intervals, a.top());
    }

    @Test
    void theIssuesExamples() {
        assertTrue(AxisScale.of(88 * MS, US, 5).top() <= 100 * MS, "88 ms is at most 100 ms");
        long fourteen = AxisScale.of(14 * MS, US, 5).top();
        assertTrue(fourteen == 15 * MS || fourteen == 20 * MS, "14 ms: " + fourteen);
        long small = AxisScale.of(370 * US, US, 5).top();
        assertTrue(small == 400 * US || small == 500 * US, "0.37 ms: " + small);
    }

    @Test
    void noPositiveValueIsOneIntervalAtTheLabelsResolution() {
        assertEquals(new AxisScale(US, 1), AxisScale.of(0, US, 5));
        assertEquals(new AxisScale(US, 1), AxisScale.of(-5, US, 5));
    }

    /**
     * Against a brute force over every 1-2-5 step: the axis covers the maximum, no allowed step
     * ends lower, and so the axis never runs to more than 1.5 times the data (the worst case is
     * just above 100, ending at 150).
     */
    @Test
    void noRoundStepEndsLowerForRandomMaxima() {
        SplittableRandom rnd = new SplittableRandom(18);
        for (int i = 0; i < 20_000; i++) {
            long max = 1 + rnd.nextLong(1, 1L << rnd.nextInt(1, 40));
            AxisScale a = AxisScale.of(max, 1, 5);
            assertTrue(a.top() >= max, max + " -> " + a);
            assertTrue(a.intervals() <= 5, max + " -> " + a);
            long best = Long.MAX_VALUE;
            for (long p = 1; p <= 1_000_000_000_000_000L; p *= 10) {
                for (long m : new long[] {1, 2, 5}) {
                    long s = m * p;
                    long n = (max + s - 1) / s;
                    if (n <= 5) {
                        best = Math.min(best, n * s);
                    }
                }
            }
            assertEquals(best, a.top(), "max " + max);
            assertTrue(a.top() * 2 <= max * 3, max + " -> " + a.top());
        }
    }

    @Test
    void stepsStayWholeMicrosecondsForMillisecondLabels() {
        assertEquals(new AxisScale(US, 4), AxisScale.of(3_500, US, 5), "3.5 µs: 1 µs x 4, never 0.5 µs steps");
    }

    @Test
    void rejectsNonsenseArguments() {
        assertThrows(IllegalArgumentException.class, () -> AxisScale.of(5, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> AxisScale.of(5, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new AxisScale(0, 1));
    }

    @Test
    void timelineTickStepIsTheSmallestRoundStepAtLeastTheRawValue() {
        assertEquals(1, AxisScale.niceStep(0));
        assertEquals(2, AxisScale.niceStep(1.5));
        assertEquals(5_000_000, AxisScale.niceStep(2_500_001));
        assertEquals(10_000_000, AxisScale.niceStep(5_000_001));
        assertEquals(1_000_000, AxisScale.niceStep(1_000_000));
    }
}
