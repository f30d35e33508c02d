package io.overlapanalyze.compare;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Medians, the significance rule and the gate's threshold rule on hand-made numbers. */
class StatisticsAndThresholdTest {
    private static Samples ns(long... v) {
        return Samples.ofLongs(MetricUnit.NS, v);
    }

    @Test
    void mediansAreExactLongs() {
        // Epoch-scale nanoseconds: a double cannot hold these to the ns.
        long base = 1_712_195_495_520_870_926L;
        assertEquals(base + 1, ns(base + 2, base, base + 1).median());
        // Even count: lower middle + floor(gap / 2).
        assertEquals(base + 1, ns(base, base + 3, base + 100, base - 7).median());
        assertNull(ns().median());
        assertEquals(0.5, Samples.ofDoubles(new double[] {0.25, 0.75}).median());
    }

    @Test
    void noVerdictBelowFiveSamplesASide() {
        Samples four = ns(1, 2, 3, 4);
        Samples five = ns(100, 200, 300, 400, 500);
        assertNull(Samples.mannWhitneyP(four, five));
        MetricChange c = MetricChange.of(Metric.TAIL, four, five, 0.05);
        assertEquals(Verdict.TOO_FEW_SAMPLES, c.verdict());
        assertNull(c.pValue());
        // Still reports the medians and the change: 300 − 2.
        assertEquals(298L, c.absChange());
        assertEquals(149.0, c.relChange(), 1e-12);
    }

    @Test
    void mannWhitneyMatchesAnIndependentComputation() {
        // 5 vs 5 completely separated: U = 0, z = −12.5 / sqrt(25·11/12); 2Φ(z) = 0.009023438818080334 (Python).
        MetricChange c = MetricChange.of(Metric.TAIL, ns(1, 2, 3, 4, 5), ns(6, 7, 8, 9, 10), 0.05);
        assertEquals(0.009023438818080334, c.pValue(), 1e-12);
        assertEquals(Verdict.SIGNIFICANT, c.verdict());
        // Interleaved: x = 1,3,5,7,9 vs y = 2,4,6,8,10: U_x = 10, z = −2.5 / 4.7871 → p = 0.6015081344405899 (Python).
        MetricChange mixed = MetricChange.of(Metric.TAIL, ns(1, 3, 5, 7, 9), ns(2, 4, 6, 8, 10), 0.05);
        assertEquals(0.6015081344405899, mixed.pValue(), 1e-12);
        assertEquals(Verdict.NOT_SIGNIFICANT, mixed.verdict());
    }

    @Test
    void missingSideIsNotAvailable() {
        MetricChange c = MetricChange.of(Metric.TAIL, ns(), ns(1, 2, 3, 4, 5), 0.05);
        assertEquals(Verdict.NOT_AVAILABLE, c.verdict());
        assertNull(c.absChange());
        GateCheck g = GateCheck.evaluate(GateThreshold.TAIL, c);
        assertEquals(GateStatus.SKIPPED, g.status());
        assertTrue(g.reason().contains("baseline"), g.reason());
    }

    @Test
    void relativeChangeIsAbsentFromZero() {
        MetricChange c = MetricChange.of(Metric.TAIL, ns(0, 0, 0, 0, 0), ns(5, 5, 5, 5, 5), 0.05);
        assertNull(c.relChange());
        assertEquals(5L, c.absChange());
    }

    @Test
    void thresholdNeedsBothTheRelativeAndTheAbsoluteBound() {
        GateThreshold t = new GateThreshold("tail", 0.10, 100_000L); // +10 % and ≥ 0.1 ms
        assertFalse(t.exceeded(1_000_000L, 99_999L), "+10 % but under 0.1 ms");
        assertFalse(t.exceeded(1_000_000L, 100_000L), "exactly +10 %: not more than 10 %");
        assertTrue(t.exceeded(1_000_000L, 100_001L), "+10.0001 % and ≥ 0.1 ms");
        assertFalse(t.exceeded(10_000_000L, 500_000L), "0.5 ms but only +5 %");
        assertTrue(t.exceeded(10_000_000L, 1_500_000L));
        assertTrue(t.exceeded(0L, 100_000L), "from no tail: the absolute bound decides");
        assertFalse(t.exceeded(0L, 99_999L));
        assertFalse(t.exceeded(1_000_000L, -500_000L), "an improvement never fails");
        assertTrue(new GateThreshold("tail", null, 0L).exceeded(1_000_000L, 1L), "no relative bound, floor 0");
        assertThrows(IllegalArgumentException.class, () -> new GateThreshold("overlapRatio", 0.1, 0L));
        assertThrows(IllegalArgumentException.class, () -> new GateThreshold("tail", -0.1, 0L));
    }

    @Test
    void overThresholdButNoiseOrTooFewSamples() {
        // Over both thresholds, but not significant: interleaved samples with a higher median.
        MetricChange noisy = MetricChange.of(Metric.TAIL,
                ns(1_000_000, 3_000_000, 5_000_000, 7_000_000, 9_000_000),
                ns(2_000_000, 4_000_000, 6_000_000, 8_000_000, 10_000_000), 0.05);
        GateCheck g = GateCheck.evaluate(GateThreshold.TAIL, noisy);
        assertTrue(g.overThreshold());
        assertEquals(GateStatus.PASS, g.status());

        // Same medians with 3 samples a side: no test possible, so over the thresholds is inconclusive (§10).
        MetricChange few = MetricChange.of(Metric.TAIL, ns(1_000_000, 5_000_000, 9_000_000),
                ns(2_000_000, 6_000_000, 10_000_000), 0.05);
        GateCheck f = GateCheck.evaluate(GateThreshold.TAIL, few);
        assertEquals(Verdict.TOO_FEW_SAMPLES, f.verdict());
        assertEquals(GateStatus.INCONCLUSIVE, f.status());
        assertTrue(f.overThreshold());

        // Within the thresholds, too few samples change nothing: a pass.
        MetricChange fewSmall = MetricChange.of(Metric.TAIL, ns(1_000_000, 1_000_000, 1_000_000),
                ns(1_010_000, 1_010_000, 1_010_000), 0.05);
        assertEquals(GateStatus.PASS, GateCheck.evaluate(GateThreshold.TAIL, fewSmall).status());
    }
}
