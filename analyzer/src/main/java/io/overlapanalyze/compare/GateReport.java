package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.ToolFile;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code overlap-analyze gate --baseline BASE CURRENT}: the checked metrics of the current run
 * against the baseline. A check fails only when its change is over both thresholds and, when
 * both runs have enough samples, significant (metrics.md §10). Serialised as it is for JSON.
 *
 * @param kind          always {@link ToolFile#GATE}'s kind
 * @param schemaVersion layout version of this document
 * @param tool          tool name and version
 * @param alpha         significance level
 * @param minSamples    samples needed on each side for a significance verdict
 * @param baseline      the baseline run
 * @param current       the run under test
 * @param result        REGRESSION when any check is; else INCONCLUSIVE when a check is and inconclusive
 *                      checks fail; else PASS
 * @param checks        one per checked metric, in threshold order
 * @param warnings      what the readers of either run skipped or repaired ("current: trace.json: truncated…"):
 *                      a gate that passes on damaged input must say so; also what the policy let pass
 * @param comparability whether the runs can be compared at all (metrics.md §10), with the differences; the
 *                      gate refuses incomparable runs unless allowed, then warns
 * @param inconclusive  what an INCONCLUSIVE check does to the result: "fail" (the default) or "pass"
 *                      ({@code --inconclusive pass}, with a warning per check)
 */
public record GateReport(String kind, int schemaVersion, String tool, double alpha, int minSamples,
                         RunSide baseline, RunSide current, GateStatus result, List<GateCheck> checks,
                         List<String> warnings, String inconclusive, Comparability comparability) {
    public static final int SCHEMA_VERSION = 1;

    public GateReport {
        checks = List.copyOf(checks);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** This report with other warnings (every other component carried over). */
    public GateReport withWarnings(List<String> w) {
        return new GateReport(kind, schemaVersion, tool, alpha, minSamples, baseline, current, result, checks, w,
                inconclusive, comparability);
    }

    /** Runs the checks, allowing nothing ({@link GatePolicy#STRICT}). */
    public static GateReport evaluate(Run baseline, Run current, List<GateThreshold> thresholds,
                                      AnalysisOptions options, double alpha, String tool) {
        return evaluate(baseline, current, thresholds, options, alpha, tool, GatePolicy.STRICT);
    }

    /**
     * Runs the checks: first, when the current run's ranks were analysed together, that it has no
     * cross-rank {@code ERROR} ({@link GateCheck#CROSS_RANK_ERRORS}); then one per threshold.
     */
    public static GateReport evaluate(Run baseline, Run current, List<GateThreshold> thresholds,
                                      AnalysisOptions options, double alpha, String tool, GatePolicy policy) {
        List<GateCheck> checks = new ArrayList<>();
        if (current.crossRank() != null) {
            checks.add(GateCheck.crossRankErrors(baseline, current, policy.allowMismatch()));
        }
        for (GateThreshold t : thresholds) {
            StepMetric m = StepMetric.byKey(t.metric());
            MetricChange c = MetricChange.of(m, baseline.samples(m, options), current.samples(m, options), alpha);
            checks.add(GateCheck.evaluate(t, c));
        }
        boolean inconclusive = checks.stream().anyMatch(c -> c.status() == GateStatus.INCONCLUSIVE);
        GateStatus result = checks.stream().anyMatch(c -> c.status() == GateStatus.REGRESSION) ? GateStatus.REGRESSION
                : inconclusive && !policy.inconclusivePasses() ? GateStatus.INCONCLUSIVE : GateStatus.PASS;
        List<String> warnings = DiffReport.sideWarnings("baseline", baseline, "current", current);
        Comparability comparability = Comparability.of(baseline, current, options);
        if (!comparability.comparable()) {
            warnings.add(comparability.warning("the baseline and the current run"));
        }
        for (GateCheck c : checks) {
            if (c.metric().equals(GateCheck.CROSS_RANK_ERRORS) && c.overThreshold() && c.status() == GateStatus.PASS) {
                warnings.add("current: " + c.reason());
            }
            if (c.status() == GateStatus.INCONCLUSIVE && policy.inconclusivePasses()) {
                warnings.add(c.metric() + ": " + c.reason() + "; passed by --inconclusive pass");
            }
        }
        return new GateReport(ToolFile.GATE.kind(), SCHEMA_VERSION, tool, alpha, Samples.MIN_FOR_TEST, RunSide.of(baseline, options),
                RunSide.of(current, options), result, checks, warnings, policy.inconclusivePasses() ? "pass" : "fail",
                comparability);
    }
}
