package io.overlapanalyze.cli.annotate;

/**
 * Chrome-trace times are microseconds; ours are nanoseconds. Written as decimal text with exactly
 * three decimals from integer arithmetic, so {@code 1712195495520870926} ns becomes
 * {@code 1712195495520870.926} with no rounding (a double could not hold it), and {@code -1500}
 * ns becomes {@code -1.500} (Nsight times start near zero; an applied clock offset can take one
 * below it).
 */
final class Micros {
    private Micros() {
    }

    static String of(long ns) {
        StringBuilder b = new StringBuilder(24);
        if (ns < 0) {
            b.append('-');
        }
        // Digits of |ns| without negating it (|Long.MIN_VALUE| has no long).
        long whole = Math.abs(ns / 1000);
        long frac = Math.abs(ns % 1000);
        b.append(whole).append('.');
        if (frac < 100) {
            b.append('0');
        }
        if (frac < 10) {
            b.append('0');
        }
        return b.append(frac).toString();
    }

    /** {@link #of} with a sign always: {@code +37.206}, {@code -120.373}, {@code +0.000}. */
    static String signed(long ns) {
        String s = of(ns);
        return s.startsWith("-") ? s : "+" + s;
    }
}
