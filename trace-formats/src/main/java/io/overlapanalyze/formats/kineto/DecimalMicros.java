package io.overlapanalyze.formats.kineto;

import java.math.BigDecimal;
import java.math.RoundingMode;

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
        try {
            while (i < end && isDigit(buf[i])) {
                micros = Math.addExact(Math.multiplyExact(micros, 10), buf[i] - '0');
                i++;
                intDigits++;
            }
        } catch (ArithmeticException e) {
            throw tooLarge(buf, off, len);
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
        try {
            long ns = Math.addExact(Math.multiplyExact(micros, 1000), fraction + (roundUp ? 1 : 0));
            return negative ? -ns : ns;
        } catch (ArithmeticException e) {
            throw tooLarge(buf, off, len);
        }
    }

    private static long viaBigDecimal(char[] buf, int off, int len) {
        try {
            BigDecimal ns = new BigDecimal(buf, off, len).movePointRight(3).setScale(0, RoundingMode.HALF_UP);
            return ns.longValueExact();
        } catch (ArithmeticException e) {
            throw tooLarge(buf, off, len);
        } catch (NumberFormatException e) {
            throw bad(buf, off, len);
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static NumberFormatException bad(char[] buf, int off, int len) {
        return new NumberFormatException("not a decimal number: \"" + new String(buf, off, Math.min(len, 40)) + "\"");
    }

    private static NumberFormatException tooLarge(char[] buf, int off, int len) {
        return new NumberFormatException("out of range for nanoseconds: " + new String(buf, off, Math.min(len, 40)));
    }
}
