package io.overlapanalyze.synth;

import java.math.BigDecimal;

/**
 * Microsecond text ⇄ nanoseconds, exactly. Scenario files and Kineto traces both write
 * microseconds with up to three decimals; a double cannot carry that to the nanosecond at
 * epoch magnitudes, so nothing here goes through floating point.
 */
public final class Durations {
    private Durations() {
    }

    /** Nanoseconds from a decimal microsecond value with at most 3 decimals ({@code 2000}, {@code 0.5}). */
    public static long usToNs(BigDecimal us) {
        BigDecimal ns = us.movePointRight(3).stripTrailingZeros();
        if (ns.scale() > 0) {
            throw new IllegalArgumentException("at most 3 decimals (whole ns) allowed, got " + us.toPlainString());
        }
        try {
            return ns.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("out of range: " + us.toPlainString());
        }
    }

    /** Nanoseconds from microsecond text such as {@code "4458677009853.422"}. */
    public static long usToNs(String us) {
        try {
            return usToNs(new BigDecimal(us.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + us);
        }
    }

    /** Whole microseconds to ns. */
    public static long us(long us) {
        return Math.multiplyExact(us, 1000L);
    }

    /** Whole milliseconds to ns. */
    public static long ms(long ms) {
        return Math.multiplyExact(ms, 1_000_000L);
    }

    /**
     * Kineto's {@code fmtTs}: {@code <ns/1000>.<ns%1000 as 3 digits>}, for non-negative ns. The
     * writer uses it for every {@code ts} and {@code dur}, so the text always has 3 decimals.
     */
    public static String formatUs(long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("negative time " + ns + " ns (Kineto would clamp it to 0)");
        }
        long frac = ns % 1000;
        StringBuilder sb = new StringBuilder(24).append(ns / 1000).append('.');
        if (frac < 100) {
            sb.append('0');
        }
        if (frac < 10) {
            sb.append('0');
        }
        return sb.append(frac).toString();
    }

    /** Human text for messages and javadoc-style descriptions: {@code 2000} or {@code 0.5} (µs). */
    static String plainUs(long ns) {
        return BigDecimal.valueOf(ns, 3).stripTrailingZeros().toPlainString();
    }
}
