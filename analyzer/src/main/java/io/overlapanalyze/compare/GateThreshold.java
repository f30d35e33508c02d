package io.overlapanalyze.compare;

import java.util.List;

/**
 * When a metric counts as regressed (metrics.md §10): its median grew by more than
 * {@code maxIncrease} of the baseline <em>and</em> by at least {@code minDeltaNs}. Both must
 * hold: the relative bound ignores noise on large values, the absolute one ignores big
 * percentages of tiny values (a tail from 10 µs to 20 µs is +100 % and irrelevant).
 *
 * @param metric      {@link Metric#key()}; gate checks time metrics (unit NS)
 * @param maxIncrease allowed relative increase as a fraction (0.10 = 10 %); {@code null}: no
 *                    relative bound, only the absolute one
 * @param minDeltaNs  smallest increase, in ns, that can fail the check
 */
public record GateThreshold(String metric, Double maxIncrease, long minDeltaNs) {
    public GateThreshold {
        StepMetric m = StepMetric.byKey(metric);
        if (m == null || m.unit() != MetricUnit.NS) {
            throw new IllegalArgumentException("gate checks time metrics only, not " + metric);
        }
        if (maxIncrease != null && !(maxIncrease >= 0)) {
            throw new IllegalArgumentException("maxIncrease must be >= 0, got " + maxIncrease);
        }
        if (minDeltaNs < 0) {
            throw new IllegalArgumentException("minDeltaNs must be >= 0, got " + minDeltaNs);
        }
    }

    /** Default: tail +10 % and ≥ 0.1 ms. */
    public static final GateThreshold TAIL = new GateThreshold("tail", 0.10, 100_000L);
    /** Default: exposed communication +10 % and ≥ 0.1 ms. */
    public static final GateThreshold EXPOSED_COMM = new GateThreshold("exposedComm", 0.10, 100_000L);
    /**
     * Default: step time +5 % and ≥ 0.5 ms. Tighter relatively than the tail because the step is
     * the sum of everything (a 5 % slower step is a real cost) but step-to-step noise is larger in
     * absolute terms, hence the larger floor.
     */
    public static final GateThreshold STEP_TIME = new GateThreshold("stepTime", 0.05, 500_000L);

    /** The default checks, in report order. */
    public static List<GateThreshold> defaults() {
        return List.of(TAIL, EXPOSED_COMM, STEP_TIME);
    }

    /** True when a change from {@code baseline} by {@code change} ns is over both bounds. */
    public boolean exceeded(long baseline, long change) {
        if (change <= 0 || change < minDeltaNs) {
            return false;
        }
        // A baseline of 0 (no tail at all) makes any relative increase infinite: the absolute bound decides.
        return maxIncrease == null || baseline <= 0 || (double) change > maxIncrease * (double) baseline;
    }
}
