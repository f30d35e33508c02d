package io.overlapanalyze.report;

/**
 * The one rule for every time printed for people (text, markdown, HTML, notes, diff, gate,
 * what-if): the JSON value in ns divided and rounded <b>half up</b> at the printed resolution, in
 * exact integer arithmetic. Milliseconds show three decimals, so {@code 27_767_500} ns prints
 * {@code 27.768} and {@code 27_767_499} prints {@code 27.767}. Half up means toward +∞ at exactly
 * .5, for negative values too: {@code -1_500} ns is {@code -0.001} ms, {@code -2_500} ns is
 * {@code -0.002} ms, {@code -500} ns is {@code 0.000} (never "-0.000"). A value's sign is the
 * sign of the rounded value.
 */
public final class HumanTime {
    private HumanTime() {
    }

    /** Whole µs of {@code ns}, half up (toward +∞ at .5). */
    public static long roundedMicros(long ns) {
        return Math.floorDiv(ns, 1_000L) + (Math.floorMod(ns, 1_000L) >= 500 ? 1 : 0);
    }

    /** Milliseconds with three decimals: {@code 27_767_500 -> "27.768"}, {@code -1_500 -> "-0.001"}. */
    public static String ms(long ns) {
        long us = roundedMicros(ns);
        long abs = Math.abs(us);
        StringBuilder sb = new StringBuilder(12);
        if (us < 0) {
            sb.append('-');
        }
        sb.append(abs / 1000).append('.');
        long frac = abs % 1000;
        if (frac < 100) {
            sb.append(frac < 10 ? "00" : "0");
        }
        return sb.append(frac).toString();
    }

    /** {@link #ms} with a sign always: {@code "+2.000"}, {@code "-0.001"}, {@code "+0.000"}. */
    public static String signedMs(long ns) {
        String s = ms(ns);
        return s.startsWith("-") ? s : "+" + s;
    }

    /** Whole microseconds, half up: {@code 1_500 -> "2"}, {@code 1_499 -> "1"}. */
    public static String us(long ns) {
        return Long.toString(roundedMicros(ns));
    }
}
