package io.overlapanalyze.findings;

import io.overlapanalyze.analysis.ExactMedian;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The steps a rank's findings are computed over, and per-step medians. Complete steps with device
 * work, as the totals count them by default; a rank with none uses its partial steps (and says so),
 * since a capture of one cut step is all a user may have.
 */
final class StepFigures {
    private final List<StepReport> steps;
    private final boolean partialOnly;

    private StepFigures(List<StepReport> steps, boolean partialOnly) {
        this.steps = steps;
        this.partialOnly = partialOnly;
    }

    static StepFigures of(List<StepReport> all) {
        List<StepReport> complete = new ArrayList<>();
        List<StepReport> withWork = new ArrayList<>();
        for (StepReport s : all) {
            // A step marked as having no usable data (the clocks disagree) is no evidence, not even as a partial one.
            if (s.deviceStartNs() == null || s.stepPeriodNs() == null || !s.hasUsableData()) {
                continue;
            }
            withWork.add(s);
            if (!s.partial()) {
                complete.add(s);
            }
        }
        return complete.isEmpty() ? new StepFigures(withWork, !withWork.isEmpty())
                : new StepFigures(complete, false);
    }

    List<StepReport> steps() {
        return steps;
    }

    boolean isEmpty() {
        return steps.isEmpty();
    }

    /** True when only partial steps were there to use. */
    boolean partialOnly() {
        return partialOnly;
    }

    /** Median over the steps of a per-step value. */
    long median(ToLongFunction<StepReport> value) {
        long[] v = new long[steps.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = value.applyAsLong(steps.get(i));
        }
        return median(v);
    }

    /** Median of whole ns by the totals' rule ({@link ExactMedian}), so a finding's figure is the report's; 0 when empty. */
    static long median(long[] values) {
        return values.length == 0 ? 0 : ExactMedian.of(values, values.length);
    }
}
