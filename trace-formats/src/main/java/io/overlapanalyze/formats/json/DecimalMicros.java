package io.overlapanalyze.formats.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Converts a decimal count of microseconds, as written in a Chrome trace ({@code 1712195495520870.926}),
 * into a {@code long} count of nanoseconds, exactly, from the number's text. A {@code double} cannot
 * hold epoch microseconds to the nanosecond (it steps by 0.25 µs near 1.7·10¹⁵), so the text never
 * goes through one.
 *
 * <p>Kineto writes at most 3 fractional digits (whole nanoseconds). Other producers may write more
 * ({@code 79089.52021875}); those are rounded to the nearest nanosecond, halves away from zero
 * (HALF_UP), which is what the 4th fractional digit alone decides. Exponent forms ({@code 1.5e3})
 * are accepted and converted exactly through {@link BigDecimal}.
 */
public final class DecimalMicros {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private DecimalMicros() {
    }

    /**
     * Parses {@code text} (optional sign, digits, optional fraction, optional exponent).
     *
     * @throws NumberFormatException when the text is not a decimal number or the result does not
     *                               fit a {@code long} of nanoseconds
     */
    public static long toNanos(CharSequence text) {
        int len = text.length();
        char[] buf = new char[len];
        for (int i = 0; i < len; i++) {
            buf[i] = text.charAt(i);
        }
        return toNanos(buf, 0, len);
    }

    /** As {@link #toNanos(CharSequence)}, on a slice of a char buffer (Jackson's token buffer). */
    public static long toNanos(char[] buf, int off, int len) {
        byte[] ascii = new byte[len];
        for (int i = 0; i < len; i++) {
            char c = buf[off + i];
            if (c > 0x7f) {
                throw bad(buf, off, len);
            }
            ascii[i] = (byte) c;
        }
        return toNanos(ascii, 0, len);
    }

    /**
     * As {@link #toNanos(CharSequence)}, of the number {@code s} has just read
     * ({@link Utf8JsonScanner#number()}): the value its scan computed when it has it
     * ({@link Utf8JsonScanner#thousandths()}), else its slice parsed.
     */
    public static long numberToNanos(Utf8JsonScanner s) {
        long exact = s.thousandths();
        return exact != Utf8JsonScanner.NOT_EXACT ? exact : toNanos(s.buffer(), s.sliceStart(), s.sliceEnd() - s.sliceStart());
    }

    /** As {@link #toNanos(CharSequence)}, on a slice of ASCII bytes (the byte scanner's number text). */
    public static long toNanos(byte[] buf, int off, int len) {
        int i = off;
        int end = off + len;
        if (i >= end) {
            throw bad(buf, off, len);
        }
        boolean negative = false;
        if (buf[i] == '-' || buf[i] == '+') {
            negative = buf[i] == '-';
            i++;
        }
        long micros = 0;
        int intDigits = 0;
        // Eight digits at a time while they are digits (epoch µs have 16), then one at a time.
        // 18 digits cannot overflow a long; only longer integer parts need the exact checks.
        while (i + 8 <= end && intDigits <= 10) {
            long w = (long) LONGS.get(buf, i);
            if (((w & 0xF0F0F0F0F0F0F0F0L) | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) >>> 4))
                    != 0x3333333333333333L) {
                break; // not eight digits: each byte is 0x30-0x39 only if both nibble tests hold
            }
            // The eight digits' value, first digit in the lowest byte: pairs, then fours, then all.
            w = ((w & 0x0F0F0F0F0F0F0F0FL) * 2561) >>> 8;
            w = ((w & 0x00FF00FF00FF00FFL) * 6553601) >>> 16;
            w = ((w & 0x0000FFFF0000FFFFL) * 42949672960001L) >>> 32;
            micros = micros * 100_000_000 + w;
            intDigits += 8;
            i += 8;
        }
        while (i < end && isDigit(buf[i])) {
            if (intDigits < 18) {
                micros = micros * 10 + (buf[i] - '0');
            } else {
                try {
                    micros = Math.addExact(Math.multiplyExact(micros, 10), buf[i] - '0');
                } catch (ArithmeticException e) {
                    throw tooLarge(buf, off, len);
                }
            }
            i++;
            intDigits++;
        }
        long fraction = 0; // nanoseconds: the first 3 fractional digits, padded
        int fracDigits = 0;
        boolean roundUp = false;
        if (i < end && buf[i] == '.') {
            i++;
            while (i < end && isDigit(buf[i])) {
                if (fracDigits < 3) {
                    fraction = fraction * 10 + (buf[i] - '0');
                } else if (fracDigits == 3) {
                    roundUp = buf[i] >= '5'; // half-up: only the first dropped digit decides
                }
                fracDigits++;
                i++;
            }
        }
        if (intDigits == 0 && fracDigits == 0) {
            throw bad(buf, off, len);
        }
        if (i < end && (buf[i] == 'e' || buf[i] == 'E')) {
            return viaBigDecimal(buf, off, len);
        }
        if (i != end) {
            throw bad(buf, off, len);
        }
        for (int d = Math.min(fracDigits, 3); d < 3; d++) {
            fraction *= 10;
        }
        if (micros <= MAX_EXACT_MICROS) {
            long ns = micros * 1000 + fraction + (roundUp ? 1 : 0);
            return negative ? -ns : ns;
        }
        try {
            long ns = Math.addExact(Math.multiplyExact(micros, 1000), fraction + (roundUp ? 1 : 0));
            return negative ? -ns : ns;
        } catch (ArithmeticException e) {
            throw tooLarge(buf, off, len);
        }
    }

    /** Up to this many µs, {@code µs * 1000 + 1000} cannot overflow. */
    private static final long MAX_EXACT_MICROS = (Long.MAX_VALUE - 1000) / 1000;

    private static long viaBigDecimal(byte[] buf, int off, int len) {
        try {
            BigDecimal ns = new BigDecimal(text(buf, off, len)).movePointRight(3).setScale(0, RoundingMode.HALF_UP);
            return ns.longValueExact();
        } catch (ArithmeticException e) {
            throw tooLarge(buf, off, len);
        } catch (NumberFormatException e) {
            throw bad(buf, off, len);
        }
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static String text(byte[] buf, int off, int len) {
        return new String(buf, off, len, StandardCharsets.ISO_8859_1);
    }

    private static NumberFormatException bad(char[] buf, int off, int len) {
        return new NumberFormatException("not a decimal number: \"" + new String(buf, off, Math.min(len, 40)) + "\"");
    }

    private static NumberFormatException bad(byte[] buf, int off, int len) {
        return new NumberFormatException("not a decimal number: \"" + text(buf, off, Math.min(len, 40)) + "\"");
    }

    private static NumberFormatException tooLarge(byte[] buf, int off, int len) {
        return new NumberFormatException("out of range for nanoseconds: " + text(buf, off, Math.min(len, 40)));
    }
}
