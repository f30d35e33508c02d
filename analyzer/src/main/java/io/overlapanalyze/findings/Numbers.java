package io.overlapanalyze.findings;

import io.overlapanalyze.report.HumanTime;

/**
 * How findings write numbers into their one-line evidence: milliseconds with three decimals and
 * shares in whole percent, both rounded half up from the exact value the JSON holds.
 */
final class Numbers {
    private Numbers() {
    }

    /** "85.740 ms" from ns, half up at the µs. */
    static String ms(long ns) {
        return HumanTime.ms(ns) + " ms";
    }

    /** "78%" of {@code whole}, half up; "-" without a whole. */
    static String pct(long part, long whole) {
        if (whole <= 0) {
            return "-";
        }
        return Math.floorDiv(200 * part + whole, 2 * whole) + "%";
    }
}
