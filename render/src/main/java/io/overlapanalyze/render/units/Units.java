package io.overlapanalyze.render.units;

import io.overlapanalyze.report.HumanTime;

import java.util.Locale;

/**
 * Human formatting of nanosecond values (exact integer arithmetic, no rounding through double for
 * times; times rounded half up by {@link HumanTime}'s one rule).
 */
public final class Units {
    private Units() {
    }

    /**
     * Milliseconds with three decimals, rounded half up at the µs as every printed time is
     * ({@link HumanTime}): {@code 8000000 -> "8.000"}, {@code 27767500 -> "27.768"}.
     */
    public static String ms(long ns) {
        return HumanTime.ms(ns);
    }

    /** {@link #ms(long)} with its sign always: {@code "+2.000"}, {@code "-0.040"}; "-" when undefined. */
    public static String signedMs(Long ns) {
        return ns == null ? "-" : HumanTime.signedMs(ns);
    }

    /** Like {@link #ms(long)}, or "-" for an undefined value. */
    public static String ms(Long ns) {
        return ns == null ? "-" : ms(ns.longValue());
    }

    /** "8.000 ms", or "n/a" for an undefined value. */
    public static String msUnit(Long ns) {
        return ns == null ? "n/a" : ms(ns.longValue()) + " ms";
    }

    /** A marker relative to the step's device start: {@code "+2.000"}; "-" when undefined. */
    public static String rel(Long absoluteNs, Long originNs) {
        if (absoluteNs == null || originNs == null) {
            return "-";
        }
        return HumanTime.signedMs(absoluteNs - originNs);
    }

    /** A ratio as a percentage with one decimal, "-" when absent. */
    public static String pct(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.1f%%", ratio * 100.0);
    }

    /** Bytes in decimal units, "?" when unknown. */
    public static String bytes(Long b) {
        if (b == null || b < 0) {
            return "?";
        }
        if (b < 1000) {
            return b + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double v = b;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** Signed µs with 3 decimals from exact ns: "+37.000 µs"; "-" when undefined. */
    public static String signedUs(Long ns) {
        if (ns == null) {
            return "-";
        }
        long abs = Math.abs(ns);
        return (ns < 0 ? "-" : "+") + abs / 1000 + "." + String.format(Locale.ROOT, "%03d", abs % 1000) + " µs";
    }

    /** A bandwidth in GB/s with two decimals, "-" when unknown. */
    public static String gbps(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}
