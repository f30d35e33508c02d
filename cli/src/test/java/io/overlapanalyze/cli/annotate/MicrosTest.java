package io.overlapanalyze.cli.annotate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** ns to Chrome-trace µs text: exact, three decimals, negative values too (Nsight clocks start near 0). */
class MicrosTest {
    @Test
    void exactDecimalMicroseconds() {
        assertEquals("1712195495520870.926", Micros.of(1_712_195_495_520_870_926L));
        assertEquals("12345.678", Micros.of(12_345_678L));
        assertEquals("0.000", Micros.of(0));
        assertEquals("0.007", Micros.of(7));
        assertEquals("1.050", Micros.of(1_050));
    }

    @Test
    void negativeValuesKeepTheirDigits() {
        assertEquals("-120.373", Micros.of(-120_373));
        assertEquals("-0.083", Micros.of(-83));
        assertEquals("-1.500", Micros.of(-1_500));
        assertEquals("-9223372036854775.808", Micros.of(Long.MIN_VALUE));
    }

    @Test
    void signedAlwaysShowsTheSign() {
        assertEquals("+37.206", Micros.signed(37_206));
        assertEquals("-120.373", Micros.signed(-120_373));
        assertEquals("+0.000", Micros.signed(0));
    }
}
