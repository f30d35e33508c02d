package io.overlapanalyze.compare;

/**
 * One metric of a diff: medians of both runs, the change and whether it is meaningful.
 * JSON field names are a contract.
 *
 * @param metric    {@link StepMetric#key()} ("tail", "annotationExposedComm[dispatch(F)]")
 * @param unit      what the numbers are (NS, RATIO, COUNT, BYTES)
 * @param samplesA  (rank, step) samples of run A that define the metric
 * @param samplesB  same for run B
 * @param medianA   median of A ({@code Long} for integral units, {@code Double} for ratios), or {@code null}
 * @param medianB   median of B, or {@code null}
 * @param absChange {@code medianB − medianA} (exact for integral units), or {@code null}
 * @param relChange {@code absChange / medianA}; {@code null} when undefined (a side missing, or medianA 0)
 * @param pValue    two-sided Mann-Whitney U p-value; {@code null} unless both sides have enough samples
 * @param verdict   the reading of {@code pValue} at the comparison's alpha
 */
public record MetricChange(String metric, MetricUnit unit, int samplesA, int samplesB, Number medianA,
                           Number medianB, Number absChange, Double relChange, Double pValue, Verdict verdict) {

    /** Compares two sample sets of one metric. */
    public static MetricChange of(StepMetric metric, Samples a, Samples b, double alpha) {
        Number ma = a.median();
        Number mb = b.median();
        Number abs = null;
        Double rel = null;
        if (ma != null && mb != null) {
            if (metric.unit().integral()) {
                long d = Math.subtractExact(mb.longValue(), ma.longValue());
                abs = d;
                rel = ma.longValue() == 0 ? null : (double) d / (double) ma.longValue();
            } else {
                double d = mb.doubleValue() - ma.doubleValue();
                abs = d;
                rel = ma.doubleValue() == 0.0 ? null : d / ma.doubleValue();
            }
        }
        Double p = null;
        Verdict verdict;
        if (a.size() == 0 || b.size() == 0) {
            verdict = Verdict.NOT_AVAILABLE;
        } else if (!Samples.testable(a, b)) {
            verdict = Verdict.TOO_FEW_SAMPLES;
        } else {
            p = Samples.mannWhitneyP(a, b);
            verdict = p < alpha ? Verdict.SIGNIFICANT : Verdict.NOT_SIGNIFICANT;
        }
        return new MetricChange(metric.key(), metric.unit(), a.size(), b.size(), ma, mb, abs, rel, p, verdict);
    }
}
