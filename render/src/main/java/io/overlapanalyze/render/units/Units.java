package io.overlapanalyze.render.units;

import java.util.Locale;

/** Human formatting of nanosecond values (exact integer arithmetic, no rounding through double for times). */
public final class Units {
    private Units() {
    }

    /** Milliseconds with three decimals (µs resolution), truncated toward zero: {@code 8000000 -> "8.000"}. */
    public static String ms(long ns) {
        long abs = Math.abs(ns);
        long whole = abs / 1_000_000;
        long micros = (abs % 1_000_000) / 1_000;
        return (ns < 0 ? "-" : "") + whole + "." + String.format(Locale.ROOT, "%03d", micros);
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
        long d = absoluteNs - originNs;
        return (d >= 0 ? "+" : "") + ms(d);
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
