package io.overlapanalyze.formats.json;

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

    /**
     * Random decimal texts, and the same texts with one byte replaced by a neighbour of the digits
     * ({@code /}, {@code :}, a letter, a blank, a non-ASCII byte), against {@link java.math.BigDecimal}: the
     * eight-digits-at-a-time path must give the exact value or refuse, as the reference does. Each
     * text also ends its buffer, where no eight bytes remain to be read at once.
     */
    @Test
    void randomTextsMatchBigDecimal() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(1129);
        byte[] junk = {'/', ':', 'a', ' ', (byte) 0xB9, (byte) 0xFF, '.', '-'};
        for (int i = 0; i < 200_000; i++) {
            StringBuilder sb = new StringBuilder(r.nextInt(8) == 0 ? "-" : "");
            int intDigits = 1 + r.nextInt(21);
            sb.append((char) ('1' + r.nextInt(9)));
            for (int d = 1; d < intDigits; d++) {
                sb.append((char) ('0' + r.nextInt(10)));
            }
            if (r.nextBoolean()) {
                sb.append('.');
                int frac = 1 + r.nextInt(6);
                for (int d = 0; d < frac; d++) {
                    sb.append((char) ('0' + r.nextInt(10)));
                }
            }
            byte[] text = sb.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            if (r.nextInt(3) == 0) {
                text[r.nextInt(text.length)] = junk[r.nextInt(junk.length)];
            }
            Long expected = reference(text);
            int pad = r.nextInt(10);
            byte[] framed = new byte[pad + text.length + (r.nextBoolean() ? 0 : 9)];
            java.util.Arrays.fill(framed, (byte) '7'); // digits around it must not be read as its own
            System.arraycopy(text, 0, framed, pad, text.length);
            String what = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
            if (expected == null) {
                assertThrows(NumberFormatException.class, () -> DecimalMicros.toNanos(framed, pad, text.length), what);
            } else {
                assertEquals(expected.longValue(), DecimalMicros.toNanos(framed, pad, text.length), what);
            }
        }
    }

    /** Nanoseconds of a decimal text of µs, rounded half up (away from zero), or null when it is not one or too large. */
    private static Long reference(byte[] text) {
        String s = new String(text, java.nio.charset.StandardCharsets.ISO_8859_1);
        // the grammar toNanos takes without an exponent: a sign, digits, a point, digits; some digit
        if (!s.matches("[-+]?[0-9]*(\\.[0-9]*)?") || !s.matches(".*[0-9].*")) {
            return null;
        }
        try {
            return new java.math.BigDecimal(s).movePointRight(3).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }
}
