package io.overlapanalyze.cli.annotate;

/**
 * Chrome-trace times are microseconds; ours are nanoseconds. Written as decimal text with exactly
 * three decimals from integer arithmetic, so {@code 1712195495520870926} ns becomes
 * {@code 1712195495520870.926} with no rounding (a double could not hold it).
 */
final class Micros {
    private Micros() {
    }

    static String of(long ns) {
        long whole = Math.floorDiv(ns, 1000);
        long frac = Math.floorMod(ns, 1000);
        StringBuilder b = new StringBuilder(24).append(whole).append('.');
        if (frac < 100) {
            b.append('0');
        }
        if (frac < 10) {
            b.append('0');
        }
        return b.append(frac).toString();
    }
}
