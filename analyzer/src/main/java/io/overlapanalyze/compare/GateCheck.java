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
 * @param verdict         significance verdict
 * @param overThreshold   the change is over both thresholds
 * @param status          PASS, REGRESSION, or SKIPPED
 * @param reason          why, in words
 */
public record GateCheck(String metric, MetricUnit unit, Number baseline, Number current, Number absChange,
                        Double relChange, Double maxIncrease, long minDelta, int samplesBaseline,
                        int samplesCurrent, Double pValue, Verdict verdict, boolean overThreshold,
                        GateStatus status, String reason) {

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
            // metrics.md §10: significance is required only "with enough samples".
            default -> of(t, c, true, GateStatus.REGRESSION,
                    "over thresholds; too few samples for a significance test, so the thresholds decide");
        };
    }

    private static GateCheck of(GateThreshold t, MetricChange c, boolean over, GateStatus status, String reason) {
        return new GateCheck(c.metric(), c.unit(), c.medianA(), c.medianB(), c.absChange(), c.relChange(),
                t.maxIncrease(), t.minDeltaNs(), c.samplesA(), c.samplesB(), c.pValue(), c.verdict(), over, status,
                reason);
    }
}
