package io.overlapanalyze.analysis;

import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Totals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Whole-run totals of a rank (metrics.md §5): per-step values added over the aggregated steps,
 * the overlap ratio over the sums (so it matches HTA's whole-trace overlap percentage), and
 * medians of the per-step values.
 *
 * <p>Aggregated steps: complete steps (partial ones too with {@code includePartial}) that have
 * device work; a step with no device work at all has no window and would only pull the medians
 * to zero. {@code tailNs} adds the steps whose tail is defined. Medians of an even count are the
 * mean of the two middle values (rounded down for ns).
 */
public final class TotalsCalculator {
    private TotalsCalculator() {
    }

    /** True when the step counts in totals under these options. */
    public static boolean aggregated(StepReport step, AnalysisOptions options) {
        return step.deviceStartNs() != null && (options.includePartial() || !step.partial());
    }

    public static Totals totals(List<StepReport> steps, AnalysisOptions options) {
        List<StepReport> used = new ArrayList<>();
        for (StepReport s : steps) {
            if (aggregated(s, options)) {
                used.add(s);
            }
        }
        long stepTime = 0;
        long comm = 0;
        long compute = 0;
        long overlapped = 0;
        long exposed = 0;
        long exposedGrad = 0;
        long idle = 0;
        long serial = 0;
        long tail = 0;
        long period = 0;
        for (StepReport s : used) {
            if (s.stepPeriodNs() != null) {
                period += s.stepPeriodNs();
            }
            stepTime += s.stepTimeNs();
            comm += s.commBusyNs();
            compute += s.computeBusyNs();
            overlapped += s.overlappedNs();
            exposed += s.exposedCommNs();
            exposedGrad += s.exposedGradCommNs();
            idle += s.idleNs();
            serial += s.serialEstimateNs();
            if (s.tailNs() != null) {
                tail += s.tailNs();
            }
        }
        Double ratio = comm == 0 ? null : (double) overlapped / (double) comm;
        Totals.Medians medians = new Totals.Medians(
                medianLong(used, StepReport::stepTimeNs),
                medianLong(used, StepReport::tailNs),
                medianLong(used, StepReport::exposedCommNs),
                medianLong(used, StepReport::exposedGradCommNs),
                medianDouble(used, StepReport::overlapRatio),
                medianLong(used, StepReport::startDelayNs));
        return new Totals(used.size(), stepTime, comm, compute, overlapped, exposed, exposedGrad, idle, serial,
                tail, ratio, medians, period);
    }

    static Long medianLong(List<StepReport> steps, Function<StepReport, Long> value) {
        long[] v = new long[steps.size()];
        int n = 0;
        for (StepReport s : steps) {
            Long x = value.apply(s);
            if (x != null) {
                v[n++] = x;
            }
        }
        if (n == 0) {
            return null;
        }
        Arrays.sort(v, 0, n);
        if (n % 2 == 1) {
            return v[n / 2];
        }
        long a = v[n / 2 - 1];
        long b = v[n / 2];
        return a + Math.floorDiv(b - a, 2L);
    }

    static Double medianDouble(List<StepReport> steps, Function<StepReport, Double> value) {
        double[] v = new double[steps.size()];
        int n = 0;
        for (StepReport s : steps) {
            Double x = value.apply(s);
            if (x != null) {
                v[n++] = x;
            }
        }
        if (n == 0) {
            return null;
        }
        Arrays.sort(v, 0, n);
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
}
