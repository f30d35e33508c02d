package io.overlapanalyze.cli.compare;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.compare.StepMetric;
import io.overlapanalyze.compare.MetricUnit;
import io.overlapanalyze.compare.Verdict;

import java.util.List;
import java.util.Locale;

/** Human formatting of compared values by unit: times in ms (exact, µs resolution), ratios in %. */
final class Fmt {
    private Fmt() {
    }

    /** The metric's name with its display unit: "tail ms", "overlap", "mean gradient bucket". */
    static String name(StepMetric m) {
        return m.unit() == MetricUnit.NS ? m.label() + " ms" : m.label();
    }

    static String value(MetricUnit unit, Number v) {
        if (v == null) {
            return "-";
        }
        return switch (unit) {
            case NS -> Units.ms(v.longValue());
            case RATIO -> Units.pct(v.doubleValue());
            case COUNT -> Long.toString(v.longValue());
            case BYTES -> Units.bytes(v.longValue());
        };
    }

    /** A signed change: "+3.000" ms, "-33.3 pt" for ratios, "+78.6 MB". */
    static String change(MetricUnit unit, Number d) {
        if (d == null) {
            return "-";
        }
        return switch (unit) {
            case NS -> Units.signedMs(d.longValue());
            case RATIO -> String.format(Locale.ROOT, "%+.1f pt", d.doubleValue() * 100.0);
            case COUNT -> String.format(Locale.ROOT, "%+d", d.longValue());
            case BYTES -> (d.longValue() >= 0 ? "+" : "-") + Units.bytes(Math.abs(d.longValue()));
        };
    }

    static String rel(Double r) {
        return r == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", r * 100.0);
    }

    static String p(Double p) {
        if (p == null) {
            return "-";
        }
        return p < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.2g", p);
    }

    static String verdict(Verdict v, Double p, int na, int nb) {
        return switch (v) {
            case SIGNIFICANT -> "significant (p=" + p(p) + ")";
            case NOT_SIGNIFICANT -> "not significant (p=" + p(p) + ")";
            case TOO_FEW_SAMPLES -> "too few samples (" + na + " vs " + nb + ")";
            case NOT_AVAILABLE -> "n/a";
        };
    }

    /** "+10% and ≥ 0.100 ms", or "≥ 0.100 ms" without a relative bound. */
    static String threshold(Double maxIncrease, long minDeltaNs) {
        String abs = "≥ " + Units.ms(minDeltaNs) + " ms";
        if (maxIncrease == null) {
            return abs;
        }
        return "> " + percent(maxIncrease) + " and " + abs;
    }

    /** 0.1 → "+10%", 0.025 → "+2.5%". */
    static String percent(double fraction) {
        double pct = fraction * 100.0;
        String s = pct == Math.rint(pct) ? Long.toString((long) pct) : String.format(Locale.ROOT, "%.4g", pct);
        return "+" + s + "%";
    }

    /** Bucket sizes compactly: "4 × 26.2 MB", or "9.7 MB, 25.0 MB, …" (at most {@code max} shown). */
    static String layout(List<Long> sizes, int max) {
        if (sizes.isEmpty()) {
            return "none";
        }
        boolean same = sizes.stream().distinct().count() == 1;
        if (same) {
            return sizes.size() + " × " + size(sizes.get(0));
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < sizes.size() && i < max; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(size(sizes.get(i)));
        }
        if (sizes.size() > max) {
            sb.append(", … (").append(sizes.size()).append(" buckets)");
        }
        return sb.toString();
    }

    /** Bytes, or "size unknown" when the trace does not record it. */
    static String size(Long bytes) {
        return bytes == null ? "size unknown" : Units.bytes(bytes);
    }
}
