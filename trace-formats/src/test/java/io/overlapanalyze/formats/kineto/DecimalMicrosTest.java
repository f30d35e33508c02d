package io.overlapanalyze.formats.kineto;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DecimalMicrosTest {
    @Test
    void epochMicrosWithThreeDecimalsIsExact() {
        assertEquals(1712195495520870926L, DecimalMicros.toNanos("1712195495520870.926"));
    }

    @Test
    void integersAndShortFractions() {
        assertEquals(1669783687929439000L, DecimalMicros.toNanos("1669783687929439"));
        assertEquals(0L, DecimalMicros.toNanos("0"));
        assertEquals(500L, DecimalMicros.toNanos("0.5"));
        assertEquals(4458677009853422L, DecimalMicros.toNanos("4458677009853.422"));
        assertEquals(1_000L, DecimalMicros.toNanos("1."));
        assertEquals(10L, DecimalMicros.toNanos("0.01"));
    }

    @Test
    void negativeValues() {
        assertEquals(-12_500L, DecimalMicros.toNanos("-12.5"));
        assertEquals(-1L, DecimalMicros.toNanos("-0.0005")); // half away from zero
    }

    @Test
    void moreThanThreeDecimalsRoundHalfUp() {
        assertEquals(79_089_520L, DecimalMicros.toNanos("79089.52021875"));
        assertEquals(79_089_521L, DecimalMicros.toNanos("79089.5205"));
        assertEquals(79_089_520L, DecimalMicros.toNanos("79089.5204999"));
        assertEquals(1_000L, DecimalMicros.toNanos("0.9999"));
    }

    @Test
    void exponentFormIsExact() {
        assertEquals(1_500_000L, DecimalMicros.toNanos("1.5e3"));
        assertEquals(1712195495520870926L, DecimalMicros.toNanos("1.712195495520870926E15"));
    }

    @Test
    void hugeValuesUpToLongRange() {
        assertEquals(Long.MAX_VALUE, DecimalMicros.toNanos("9223372036854775.807"));
        assertThrows(NumberFormatException.class, () -> DecimalMicros.toNanos("9223372036854775.808"));
        assertThrows(NumberFormatException.class, () -> DecimalMicros.toNanos("10159970886766084423"));
    }

    @Test
    void rejectsNonNumbers() {
        for (String s : new String[] {"", "abc", "-", ".", "1.2.3", "NaN", "12a", "1e"}) {
            assertThrows(NumberFormatException.class, () -> DecimalMicros.toNanos(s), s);
        }
    }

    @Test
    void parsesFromBufferSlice() {
        char[] buf = "xx123.456yy".toCharArray();
        assertEquals(123_456L, DecimalMicros.toNanos(buf, 2, 7));
    }
}
