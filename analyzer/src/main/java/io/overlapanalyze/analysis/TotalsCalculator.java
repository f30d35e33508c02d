package io.overlapanalyze.analysis;

import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Totals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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
                medianLong(used, StepReport::startDelayNs),
                medianLong(used, StepReport::stepPeriodNs),
                medianBreakdown(used),
                medianLong(used, s -> s.idle() == null ? null : s.idle().hostNs()),
                medianLong(used, s -> s.idle() == null ? null : s.idle().launchedNs()));
        return new Totals(used.size(), stepTime, comm, compute, overlapped, exposed, exposedGrad, idle, serial,
                tail, ratio, medians, period, sumBreakdown(used), sumIdle(used));
    }

    /** The steps' breakdowns added (metrics.md §11); {@code null} when no step has one. */
    static StepBreakdown sumBreakdown(List<StepReport> steps) {
        long compute = 0;
        long fused = 0;
        long comm = 0;
        long copy = 0;
        long idle = 0;
        boolean any = false;
        for (StepReport s : steps) {
            StepBreakdown b = s.breakdown();
            if (b != null) {
                any = true;
                compute += b.computeNs();
                fused += b.fusedNs();
                comm += b.commNs();
                copy += b.copyNs();
                idle += b.idleNs();
            }
        }
        return any ? new StepBreakdown(compute, fused, comm, copy, idle) : null;
    }

    /** Each part's median on its own (so the parts need not add up); {@code null} when no step has one. */
    static StepBreakdown medianBreakdown(List<StepReport> steps) {
        List<StepReport> with = steps.stream().filter(s -> s.breakdown() != null).toList();
        if (with.isEmpty()) {
            return null;
        }
        return new StepBreakdown(medianLong(with, s -> s.breakdown().computeNs()),
                medianLong(with, s -> s.breakdown().fusedNs()), medianLong(with, s -> s.breakdown().commNs()),
                medianLong(with, s -> s.breakdown().copyNs()), medianLong(with, s -> s.breakdown().idleNs()));
    }

    /**
     * The steps' idle splits added; host activities merged by name, the largest
     * {@link StepBreakdowns#TOP_ACTIVITIES} kept, largest first. {@code null} when no step has one.
     */
    static IdleBreakdown sumIdle(List<StepReport> steps) {
        long host = 0;
        long launched = 0;
        long unknown = 0;
        boolean any = false;
        Map<String, Long> byName = new HashMap<>();
        for (StepReport s : steps) {
            IdleBreakdown i = s.idle();
            if (i != null) {
                any = true;
                host += i.hostNs();
                launched += i.launchedNs();
                unknown += i.unknownNs();
                for (HostActivity a : i.hostActivity()) {
                    byName.merge(a.name(), a.ns(), Long::sum);
                }
            }
        }
        if (!any) {
            return null;
        }
        List<HostActivity> merged = new ArrayList<>();
        byName.forEach((name, ns) -> merged.add(new HostActivity(name, ns)));
        merged.sort(StepBreakdowns.LARGEST_FIRST);
        return new IdleBreakdown(host, launched, unknown,
                merged.subList(0, Math.min(StepBreakdowns.TOP_ACTIVITIES, merged.size())));
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
        return n == 0 ? null : ExactMedian.of(v, n);
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
