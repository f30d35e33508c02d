package io.overlapanalyze.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code --steps} option: a comma-separated list of step numbers, ranges and names,
 * e.g. {@code 4,5}, {@code 4-6}, {@code ProfilerStep#5}, {@code all}. A number matches the
 * number at the end of a step name ({@code ProfilerStep#5} is step 5).
 */
public final class StepSelection implements Predicate<String>, java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern RANGE = Pattern.compile("(\\d++)\\s*+-\\s*+(\\d++)");
    private static final Pattern NUMBER = Pattern.compile("\\d+");
    /**
     * The number a step name ends with. Starts only where a run of digits starts, and neither part
     * gives characters back: linear in the name (a plain {@code (\d+)\s*$} is quadratic in a name of
     * many digits followed by something else).
     */
    private static final Pattern TRAILING_NUMBER = Pattern.compile("(?<!\\d)(\\d++)\\s*+$");
    private static final Pattern NUMERIC_LOOKING = Pattern.compile("[\\d\\s+-]+");

    private final List<long[]> ranges = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final String text;

    private StepSelection(String text) {
        this.text = text;
    }

    /** Parses the option value; throws {@link PipelineInputException} with a one-line message. */
    public static StepSelection parse(String spec) {
        StepSelection s = new StepSelection(spec);
        for (String raw : spec.split(",")) {
            String part = raw.trim();
            if (part.isEmpty()) {
                continue;
            }
            Matcher range = RANGE.matcher(part);
            if (range.matches()) {
                long from = number(range.group(1), part);
                long to = number(range.group(2), part);
                if (to < from) {
                    throw new PipelineInputException("--steps: range '" + part + "' ends before it starts");
                }
                s.ranges.add(new long[] {from, to});
            } else if (NUMBER.matcher(part).matches()) {
                long n = number(part, part);
                s.ranges.add(new long[] {n, n});
            } else if (NUMERIC_LOOKING.matcher(part).matches()) {
                // "-1", "4-", "4--6": meant as numbers, but no step number is negative or open-ended.
                throw new PipelineInputException("--steps: '" + part + "' is not a step number or range (use N or N-M, "
                        + "N >= 0)");
            } else {
                s.names.add(part);
            }
        }
        if (s.ranges.isEmpty() && s.names.isEmpty()) {
            throw new PipelineInputException("--steps: no step given in '" + spec + "'");
        }
        return s;
    }

    private static long number(String digits, String part) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new PipelineInputException("--steps: '" + part + "': step number too large", e);
        }
    }

    /**
     * Fails (exit 2, naming the value) when the inputs have steps but none of them is selected: a
     * selection that matches nothing is a mistyped option, not an empty run.
     *
     * @param stepNames every step name of the inputs, before selection
     */
    public void requireAnyMatch(Collection<String> stepNames) {
        if (stepNames.isEmpty() || stepNames.stream().anyMatch(this)) {
            return;
        }
        List<String> shown = stepNames.stream().distinct().limit(5).toList();
        long distinct = stepNames.stream().distinct().count();
        throw new PipelineInputException("--steps " + text + ": no step matches (the input has " + String.join(", ", shown)
                + (distinct > shown.size() ? " and " + (distinct - shown.size()) + " more" : "") + ")");
    }

    @Override
    public boolean test(String stepName) {
        if (names.contains(stepName)) {
            return true;
        }
        Matcher m = TRAILING_NUMBER.matcher(stepName);
        if (m.find()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                return false;
            }
            for (long[] r : ranges) {
                if (n >= r[0] && n <= r[1]) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
