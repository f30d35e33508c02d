package io.overlapanalyze.compare;

/**
 * One checked metric of a gate. JSON field names are a contract.
 *
 * @param metric          {@link Metric#key()}
 * @param unit            unit of baseline, current and absChange (NS)
 * @param baseline        median over the baseline's samples, or {@code null}
 * @param current         median over the current run's samples, or {@code null}
 * @param absChange       {@code current − baseline}, or {@code null}
 * @param relChange       {@code absChange / baseline}, or {@code null} (baseline 0 or missing)
 * @param maxIncrease     the relative threshold (fraction), or {@code null} when none
 * @param minDelta        the absolute threshold, in {@code unit}
 * @param samplesBaseline samples behind {@code baseline}
 * @param samplesCurrent  samples behind {@code current}
 * @param pValue          Mann-Whitney U two-sided p-value, or {@code null} with too few samples
 * @param verdict         significance verdict; {@code null} for a check that is not statistical
 *                        ({@link #CROSS_RANK_ERRORS})
 * @param overThreshold   the change is over both thresholds
 * @param status          PASS, REGRESSION, SKIPPED or INCONCLUSIVE
 * @param reason          why, in words
 */
public record GateCheck(String metric, MetricUnit unit, Number baseline, Number current, Number absChange,
                        Double relChange, Double maxIncrease, long minDelta, int samplesBaseline,
                        int samplesCurrent, Double pValue, Verdict verdict, boolean overThreshold,
                        GateStatus status, String reason) {
    /**
     * The check that the current run has no cross-rank {@code ERROR} (metrics.md §10): a job that would
     * hang or reduce the wrong data is not a pass, whatever its times. A count (unit COUNT): baseline
     * and current are the runs' error counts ({@code null} where the run's ranks were not analysed
     * together), samples are ranks.
     */
    public static final String CROSS_RANK_ERRORS = "crossRankErrors";

    /** Words for people: the metric's label, or the name of a check that is not a metric. */
    public String label() {
        if (CROSS_RANK_ERRORS.equals(metric)) {
            return "cross-rank errors";
        }
        StepMetric m = StepMetric.byKey(metric);
        return m == null ? metric : m.label();
    }

    /**
     * The cross-rank check.
     *
     * @param baseline      the baseline run (its count is shown when its ranks were analysed together)
     * @param current       the run under test, analysed across ranks ({@code current.crossRank() != null})
     * @param allowMismatch the user lets errors pass ({@code --allow-mismatch})
     */
    static GateCheck crossRankErrors(Run baseline, Run current, boolean allowMismatch) {
        java.util.List<io.overlapanalyze.report.Mismatch> errors = current.crossRankErrors();
        java.util.List<io.overlapanalyze.report.Mismatch> before = baseline.crossRankErrors();
        long n = errors.size();
        Long b = before == null ? null : (long) before.size();
        Long change = b == null ? null : n - b;
        boolean over = n > 0;
        GateStatus status = over && !allowMismatch ? GateStatus.REGRESSION : GateStatus.PASS;
        String reason;
        if (!over) {
            reason = "no cross-rank error in the current run";
        } else {
            // The first error's own line already says what it means ("the job would hang or compute garbage").
            reason = n + " cross-rank ERROR" + (n > 1 ? "s" : "") + " in the current run"
                    + (allowMismatch ? ", allowed by --allow-mismatch" : " (--allow-mismatch lets it pass)") + ": "
                    + errors.get(0).message() + (n > 1 ? " (and " + (n - 1) + " more)" : "");
        }
        return new GateCheck(CROSS_RANK_ERRORS, MetricUnit.COUNT, b, n, change, null, null, 0L,
                baseline.crossRank() == null ? 0 : baseline.crossRank().ranks().size(),
                current.crossRank().ranks().size(), null, null, over, status, reason);
    }

    static GateCheck evaluate(GateThreshold t, MetricChange c) {
        if (c.verdict() == Verdict.NOT_AVAILABLE) {
            String side = c.samplesA() == 0 && c.samplesB() == 0 ? "either run"
                    : c.samplesA() == 0 ? "the baseline" : "the current run";
            return of(t, c, false, GateStatus.SKIPPED, "not defined in " + side + ": not checked");
        }
        long baseline = c.medianA().longValue();
        long change = c.absChange().longValue();
        boolean over = t.exceeded(baseline, change);
        if (!over) {
            return of(t, c, false, GateStatus.PASS, "within thresholds");
        }
        return switch (c.verdict()) {
            case SIGNIFICANT -> of(t, c, true, GateStatus.REGRESSION, "over thresholds and significant");
            case NOT_SIGNIFICANT -> of(t, c, true, GateStatus.PASS,
                    "over thresholds but not significant: within the runs' noise");
            // metrics.md §10: a change over its thresholds that cannot be tested is inconclusive, never a pass.
            default -> of(t, c, true, GateStatus.INCONCLUSIVE, "over thresholds, but too few samples ("
                    + c.samplesA() + " vs " + c.samplesB() + "; " + Samples.MIN_FOR_TEST + " a side needed) to tell "
                    + "it from noise: inconclusive");
        };
    }

    private static GateCheck of(GateThreshold t, MetricChange c, boolean over, GateStatus status, String reason) {
        return new GateCheck(c.metric(), c.unit(), c.medianA(), c.medianB(), c.absChange(), c.relChange(),
                t.maxIncrease(), t.minDeltaNs(), c.samplesA(), c.samplesB(), c.pValue(), c.verdict(), over, status,
                reason);
    }
}
