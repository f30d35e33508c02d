package io.overlapanalyze.cli.compare;

import io.overlapanalyze.pipeline.PipelineInputException;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses gate threshold option values exactly (decimal text, no double for durations):
 * relative {@code 10%} (or {@code 10}: percent either way; {@code off}: no relative bound) and
 * absolute {@code 0.1ms}, {@code 100us}, {@code 100µs}, {@code 250000ns}, {@code 0.5s}, or {@code 0}.
 */
public final class ThresholdValues {
    private static final Pattern PERCENT = Pattern.compile("\\s*+(\\d++(?:\\.\\d++)?)\\s*+%?\\s*+");
    private static final Pattern DURATION = Pattern.compile("\\s*+(\\d++(?:\\.\\d++)?)\\s*+(ns|us|µs|ms|s)?\\s*+");

    private ThresholdValues() {
    }

    /** A fraction (10% → 0.10), or {@code null} for "off"/"none". */
    public static Double percent(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("off") || t.equals("none")) {
            return null;
        }
        Matcher m = PERCENT.matcher(t);
        if (!m.matches()) {
            throw new PipelineInputException(option + ": '" + text + "' is not a percentage (e.g. 10%, or off)");
        }
        return new BigDecimal(m.group(1)).movePointLeft(2).doubleValue();
    }

    /** Nanoseconds. */
    public static long duration(String option, String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new PipelineInputException(option + ": '" + text + "' is not a duration (e.g. 0.1ms, 100us, 250000ns)");
        }
        BigDecimal v = new BigDecimal(m.group(1));
        String unit = m.group(2);
        if (unit == null) {
            if (v.signum() != 0) {
                throw new PipelineInputException(option + ": '" + text + "' needs a unit (ns, us, ms or s), e.g. 0.1ms");
            }
            return 0L;
        }
        int shift = switch (unit) {
            case "ns" -> 0;
            case "us", "µs" -> 3;
            case "ms" -> 6;
            default -> 9;
        };
        BigDecimal ns = v.movePointRight(shift);
        try {
            return ns.longValueExact();
        } catch (ArithmeticException e) {
            throw new PipelineInputException(option + ": '" + text + "' is not a whole number of nanoseconds, or too large");
        }
    }

    /** The significance level of diff and gate. */
    public static void checkAlpha(double alpha) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new PipelineInputException("--alpha: must be between 0 and 1 (exclusive), got " + alpha);
        }
    }
}
