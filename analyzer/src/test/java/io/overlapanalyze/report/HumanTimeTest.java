package io.overlapanalyze.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One rounding rule for every printed time: the JSON ns divided, half up at the printed µs. */
class HumanTimeTest {
    @Test
    void halfUpAtTheMicrosecond() {
        assertEquals("27.768", HumanTime.ms(27_767_500), "the issue's 27.767 vs 27.768: .5 goes up");
        assertEquals("27.767", HumanTime.ms(27_767_499));
        assertEquals("27.768", HumanTime.ms(27_767_501));
        assertEquals("8.000", HumanTime.ms(8_000_000));
        assertEquals("0.000", HumanTime.ms(0));
        assertEquals("0.000", HumanTime.ms(499));
        assertEquals("0.001", HumanTime.ms(500));
        assertEquals("1.000", HumanTime.ms(999_500), "carries into the ms");
        assertEquals("0.010", HumanTime.ms(9_500));
        assertEquals("0.100", HumanTime.ms(99_500));
        assertEquals("9223372036854.776", HumanTime.ms(Long.MAX_VALUE), "no overflow at the top");
    }

    @Test
    void negativeValuesRoundTowardPlusInfinityAtExactlyHalf() {
        assertEquals("-0.001", HumanTime.ms(-1_500), "-1.5 µs → -1 µs");
        assertEquals("-0.002", HumanTime.ms(-1_501));
        assertEquals("-0.002", HumanTime.ms(-2_500), "-2.5 µs → -2 µs");
        assertEquals("0.000", HumanTime.ms(-500), "never -0.000");
        assertEquals("-0.001", HumanTime.ms(-501));
        assertEquals("-27.767", HumanTime.ms(-27_767_500));
        assertEquals("-9223372036854.776", HumanTime.ms(Long.MIN_VALUE));
    }

    @Test
    void signedAndMicroseconds() {
        assertEquals("+2.000", HumanTime.signedMs(2_000_000));
        assertEquals("+0.000", HumanTime.signedMs(-300), "the sign of the rounded value");
        assertEquals("-0.040", HumanTime.signedMs(-40_000));
        assertEquals("2", HumanTime.us(1_500));
        assertEquals("1", HumanTime.us(1_499));
        assertEquals("-1", HumanTime.us(-1_500));
    }
}
