package io.overlapanalyze.whatif;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.StepReport;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * "If I change the bucket size, or get a faster interconnect, how long will my step and its tail
 * be?": replays each step of a measured trace (or a scenario) on the ideal two-engine timeline for
 * the measured buckets and for each bucket cap, on the measured interconnect and on a scaled one,
 * and recommends a cap.
 *
 * <p>Predictions are medians over the replayed steps. The recommendation is the cap with the
 * shortest predicted step on the interconnect asked about (the scaled one when a scale is given);
 * ties go to the smaller tail, then the smaller exposed communication, then the larger cap
 * (fewer messages: less of what the ideal timeline leaves out, such as launch overheads).
 */
public final class WhatIf {
    /** Below this relative gain the measured bucketing is called good enough (no dominant effect). */
    static final double NEGLIGIBLE_GAIN = 0.01;

    private WhatIf() {
    }

    /** A measured trace: fit the cost model from its collectives and replay its complete steps. */
    public static WhatIfReport fromTrace(RankTrace trace, AnalysisOptions analysis, WhatIfOptions options,
                                         String tool) {
        return fromTrace(trace, analysis, options, tool, name -> true);
    }

    /** As {@link #fromTrace(RankTrace, AnalysisOptions, WhatIfOptions, String)}, replaying only the steps whose name {@code stepFilter} accepts. */
    public static WhatIfReport fromTrace(RankTrace trace, AnalysisOptions analysis, WhatIfOptions options,
                                         String tool, java.util.function.Predicate<String> stepFilter) {
        TraceWorkloads.Extracted all = TraceWorkloads.extract(trace, analysis);
        TraceWorkloads.Extracted x = all.withSteps(all.steps().stream().filter(st -> stepFilter.test(st.measured().name()))
                .toList());
        if (x.steps().isEmpty()) {
            throw new IllegalArgumentException(trace.source() + ": no complete step with gradient reductions to "
                    + "replay" + (x.notes().isEmpty() ? "" : " (" + String.join("; ", x.notes()) + ")"));
        }
        List<CostModel> models = CostModelFitter.fitAll(x.samples());
        CostModel model = models.stream()
                .filter(m -> m.type() == x.gradType() && m.groupSize() == x.gradGroupSize())
                .findFirst().orElse(null);
        if (model == null) {
            throw new IllegalArgumentException(trace.source() + ": the gradient reductions have no known sizes and "
                    + "durations to fit a cost model");
        }
        List<Workload> steps = x.steps().stream().map(TraceWorkloads.StepInput::workload).toList();
        List<StepReport> reports = x.steps().stream().map(TraceWorkloads.StepInput::measured).toList();
        WhatIfReport.Measured measured = new WhatIfReport.Measured(
                median(reports.stream().mapToLong(StepReport::stepTimeNs).toArray()),
                median(reports.stream().mapToLong(r -> r.tailNs() == null ? 0 : r.tailNs()).toArray()),
                median(reports.stream().mapToLong(StepReport::exposedCommNs).toArray()),
                (int) median(steps.stream().mapToLong(w -> w.buckets().size()).toArray()),
                medianBucketBytes(steps.get(0)));
        List<String> assumptions = new ArrayList<>(traceAssumptions());
        List<String> warnings = new ArrayList<>(x.notes());
        return predict(trace.source(), "trace", steps, measured, model, models, options, assumptions, warnings, tool);
    }

    /**
     * A workload described rather than measured (a scenario, converted by its caller): replayed as
     * given for the measured line, then for each cap and interconnect with {@code model}.
     */
    public static WhatIfReport fromScenarioWorkload(Workload w, String source, CostModel model,
                                                     WhatIfOptions options, List<String> assumptions, String tool) {
        TwoEngineReplay.Result asGiven = TwoEngineReplay.replay(w, w.buckets(), null);
        WhatIfReport.Measured measured = new WhatIfReport.Measured(asGiven.stepTimeNs(), asGiven.tailNs(),
                asGiven.exposedCommNs(), asGiven.buckets(), medianBucketBytes(w));
        return predict(source, "scenario", List.of(w), measured, model, List.of(model), options, assumptions,
                new ArrayList<>(), tool);
    }

    private static List<String> traceAssumptions() {
        return List.of(
                "ideal two-engine timeline: compute stays where it ran; reductions run in issue order on one "
                        + "communication engine, each as soon as its data is ready and the engine is free (no launch "
                        + "delays, no waiting for peers)",
                "where buckets are split or merged, each bucket's gradients are assumed to become ready evenly "
                        + "over its backward compute: its bytes are spread over its backward kernels in proportion to "
                        + "their time, each kernel's share ready when the kernel ends (a kernel is never split)",
                "compute after the last reduction that was launched after the last bucket (optimizer, copy-back) "
                        + "waits for all reductions and moves with them");
    }

    static WhatIfReport predict(String source, String input, List<Workload> steps, WhatIfReport.Measured measured,
                                CostModel model, List<CostModel> models, WhatIfOptions options,
                                List<String> assumptions, List<String> warnings, String tool) {
        for (CostModel m : models) {
            if (m.quality() != CostModel.Quality.GOOD) {
                warnings.add("cost model " + m.type() + (m.groupSize() > 0 ? " (" + m.groupSize() + " ranks)" : "")
                        + ": " + m.quality() + ": " + m.note());
            }
        }
        List<WhatIfReport.Option> rows = new ArrayList<>();
        List<List<TwoEngineReplay.Result>> replays = new ArrayList<>();
        List<double[]> interconnects = new ArrayList<>();
        interconnects.add(new double[] {1, 1});
        if (options.scaled()) {
            interconnects.add(new double[] {options.bandwidthScale(), options.latencyScale()});
        }
        for (double[] ic : interconnects) {
            CostModel m = model.scaled(ic[0], ic[1]);
            String suffix = interconnectSuffix(ic[0], ic[1]);
            addRow(rows, replays, "measured buckets" + suffix, null, ic, steps, m, model, options, null);
            for (long cap : options.bucketCapsBytes()) {
                addRow(rows, replays, "cap " + mib(cap) + suffix, cap, ic, steps, m, model, options, warnings);
            }
        }
        double[] target = interconnects.get(interconnects.size() - 1);
        int best = -1;
        for (int i = 0; i < rows.size(); i++) {
            WhatIfReport.Option o = rows.get(i);
            if (o.bucketCapBytes() == null || o.bandwidthScale() != target[0] || o.latencyScale() != target[1]) {
                continue;
            }
            if (best < 0 || better(o, rows.get(best))) {
                best = i;
            }
        }
        String recommended = null;
        String dominant = "NONE";
        String reason = "no bucket caps to compare";
        WhatIfReport.Timeline timeline = null;
        if (best >= 0 && model.quality() == CostModel.Quality.POOR) {
            // A line that does not describe the measured collectives predicts other bucket sizes no
            // better than a guess: the options stay for reference, but naming one the best would
            // present noise as advice.
            reason = String.format(Locale.ROOT, "no recommendation: the cost model of the gradient reductions "
                    + "fits their measured times poorly (R^2 %s, relative RMS residual %.0f%%; GOOD needs R^2 >= %s "
                    + "and at most %.0f%%), so the predictions for the bucket caps above are not reliable enough "
                    + "to choose one. Collectives whose times follow their sizes this loosely usually wait for "
                    + "peers or share the link with other traffic: look at the cross-rank waits first.",
                    model.r2() == null ? "undefined" : String.format(Locale.ROOT, "%.3f", model.r2()),
                    100 * model.rmsRelativeResidual(), plain(CostModelFitter.GOOD_R2),
                    100 * CostModelFitter.GOOD_RMS_RELATIVE);
        } else if (best >= 0) {
            WhatIfReport.Option r = rows.get(best);
            recommended = r.label();
            WhatIfReport.Option asMeasured = rows.stream()
                    .filter(o -> o.bucketCapBytes() == null && o.bandwidthScale() == target[0]
                            && o.latencyScale() == target[1]).findFirst().orElseThrow();
            List<WhatIfReport.Option> caps = rows.stream().filter(o -> o.bucketCapBytes() != null
                    && o.bandwidthScale() == target[0] && o.latencyScale() == target[1]).toList();
            dominant = dominantEffect(r, asMeasured, measured);
            reason = Recommendation.explain(r, asMeasured, caps, dominant, model.scaled(target[0], target[1]),
                    measured);
            TwoEngineReplay.Result first = replays.get(best).get(0);
            timeline = new WhatIfReport.Timeline(r.label(), steps.get(0).stepName(), first.stepTimeNs(),
                    first.tailNs(), first.compute(), first.comm());
        }
        return new WhatIfReport(WhatIfReport.SCHEMA_VERSION, tool, source, input,
                steps.stream().map(Workload::stepName).toList(), measured, model, models, rows, recommended,
                dominant, reason, timeline, assumptions, warnings);
    }

    private static void addRow(List<WhatIfReport.Option> rows, List<List<TwoEngineReplay.Result>> replays,
                               String label, Long cap, double[] ic, List<Workload> steps, CostModel scaled,
                               CostModel fitted, WhatIfOptions options, List<String> warnings) {
        List<TwoEngineReplay.Result> results = new ArrayList<>(steps.size());
        int outside = 0;
        int total = 0;
        long largest = 0;
        long smallest = Long.MAX_VALUE;
        for (Workload w : steps) {
            List<ReplayBucket> buckets = cap == null
                    ? w.buckets().stream().map(b -> ReplayBucket.modelled(b.readyNs(), b.bytes())).toList()
                    : Rebucketing.byCap(w.units(), cap);
            for (ReplayBucket b : buckets) {
                total++;
                if (fitted.extrapolates(b.bytes(), options.extrapolationFactor())) {
                    outside++;
                    largest = Math.max(largest, b.bytes());
                    smallest = Math.min(smallest, b.bytes());
                }
            }
            results.add(TwoEngineReplay.replay(w, buckets, scaled));
        }
        boolean extrapolated = outside > 0;
        if (extrapolated && warnings != null && ic[0] == 1 && ic[1] == 1) {
            warnings.add(String.format(Locale.ROOT, "%s: %d of %d buckets (%s) lie more than %sx outside the "
                            + "fitted sizes (%d to %d bytes): extrapolated", label, outside, total,
                    smallest == largest ? smallest + " bytes" : smallest + " to " + largest + " bytes",
                    plain(options.extrapolationFactor()), fitted.minBytes(), fitted.maxBytes()));
        }
        TwoEngineReplay.Result first = results.get(0);
        rows.add(new WhatIfReport.Option(label, cap, ic[0], ic[1],
                median(results.stream().mapToLong(TwoEngineReplay.Result::stepTimeNs).toArray()),
                median(results.stream().mapToLong(TwoEngineReplay.Result::tailNs).toArray()),
                median(results.stream().mapToLong(TwoEngineReplay.Result::exposedCommNs).toArray()),
                median(results.stream().mapToLong(TwoEngineReplay.Result::serialNs).toArray()),
                median(results.stream().mapToLong(TwoEngineReplay.Result::commBusyNs).toArray()),
                first.buckets(), first.largestBucketBytes(), first.firstBucketReadyNs(), extrapolated));
        replays.add(results);
    }

    private static boolean better(WhatIfReport.Option a, WhatIfReport.Option b) {
        if (a.stepTimeNs() != b.stepTimeNs()) {
            return a.stepTimeNs() < b.stepTimeNs();
        }
        if (a.tailNs() != b.tailNs()) {
            return a.tailNs() < b.tailNs();
        }
        if (a.exposedCommNs() != b.exposedCommNs()) {
            return a.exposedCommNs() < b.exposedCommNs();
        }
        return a.bucketCapBytes() > b.bucketCapBytes();
    }

    /**
     * What limits the measured bucketing: when the best cap is clearly faster than the measured
     * buckets (by more than {@value #NEGLIGIBLE_GAIN} of the step) and its buckets are smaller,
     * the measured buckets are too big (LATE_FIRST_BUCKET); larger, too small (PER_MESSAGE_LATENCY).
     */
    static String dominantEffect(WhatIfReport.Option best, WhatIfReport.Option asMeasured,
                                 WhatIfReport.Measured measured) {
        long gain = asMeasured.stepTimeNs() - best.stepTimeNs();
        if (gain <= asMeasured.stepTimeNs() * NEGLIGIBLE_GAIN) {
            return "NONE";
        }
        return best.bucketCapBytes() < measured.medianBucketBytes() ? "LATE_FIRST_BUCKET" : "PER_MESSAGE_LATENCY";
    }

    static long medianBucketBytes(Workload w) {
        return median(w.buckets().stream().mapToLong(ReplayBucket::bytes).toArray());
    }

    /** Median; an even count gives the mean of the middle two, rounded down (as the analyzer's totals). */
    static long median(long[] values) {
        if (values.length == 0) {
            return 0;
        }
        long[] v = values.clone();
        Arrays.sort(v);
        int n = v.length;
        if (n % 2 == 1) {
            return v[n / 2];
        }
        long a = v[n / 2 - 1];
        long b = v[n / 2];
        return Math.floorDiv(a, 2) + Math.floorDiv(b, 2) + ((a & 1) + (b & 1) == 2 ? 1 : 0);
    }

    static String interconnectSuffix(double bandwidthScale, double latencyScale) {
        StringBuilder sb = new StringBuilder();
        if (bandwidthScale != 1) {
            sb.append(", bandwidth x").append(plain(bandwidthScale));
        }
        if (latencyScale != 1) {
            sb.append(", latency x").append(plain(latencyScale));
        }
        return sb.toString();
    }

    /** A cap as DDP's bucket_cap_mb would say it: "25 MiB", "2.5 MiB", or bytes when not a round value. */
    public static String mib(long bytes) {
        BigDecimal m = BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(1024L * 1024L));
        if (m.scale() > 3 && m.stripTrailingZeros().scale() > 3) {
            return bytes + " B";
        }
        return m.stripTrailingZeros().toPlainString() + " MiB";
    }

    static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
