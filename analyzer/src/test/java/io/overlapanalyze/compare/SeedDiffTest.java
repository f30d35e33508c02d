package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.BucketReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.overlapanalyze.compare.SynthRuns.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 1 at the library level: the seed's examples (metrics.md §7, 1 ms vs 4 ms per bucket)
 * as two runs of 6 steps with 2 % jitter. Expected values: the §7 table (tail 1 ms vs 8 ms,
 * LAST_BUCKET vs COMM_BOUND), widened only by what 2 % jitter can move them.
 */
class SeedDiffTest {
    private static final double JITTER = 2.0;
    private static final AnalysisOptions OPTIONS = AnalysisOptions.defaults();

    @TempDir
    static Path tmp;

    static Run oneMs;
    static Run fourMs;
    static Run oneMsOtherJitter;

    @BeforeAll
    static void makeRuns() throws Exception {
        oneMs = SynthRuns.run(tmp, "seed-1ms", SynthRuns.seed("seed-1ms", 6, JITTER, 11));
        fourMs = SynthRuns.run(tmp, "seed-4ms", SynthRuns.seed("seed-4ms", 6, JITTER, 12));
        oneMsOtherJitter = SynthRuns.run(tmp, "seed-1ms-b", SynthRuns.seed("seed-1ms", 6, JITTER, 13));
    }

    private static void assertNear(long expectedNs, Number actual, double fraction, String what) {
        assertNotNull(actual, what);
        long tol = (long) (expectedNs * fraction);
        assertTrue(Math.abs(actual.longValue() - expectedNs) <= tol,
                what + ": expected " + expectedNs + " ± " + tol + " ns, got " + actual);
    }

    @Test
    void tailGrowsFromOneToEightMsSignificantly() {
        DiffReport d = DiffReport.compare(oneMs, fourMs, OPTIONS, 0.05, "test");
        MetricChange tail = d.metric(Metric.TAIL);
        assertEquals(6, tail.samplesA());
        assertEquals(6, tail.samplesB());
        // 1 ms tail = the last all-reduce (±2 %); 8 ms = 14 − 6 ms of jittered blocks (±2 % of each part).
        assertNear(MS, tail.medianA(), 0.02, "tail A");
        assertNear(8 * MS, tail.medianB(), 0.04, "tail B");
        assertEquals(tail.medianB().longValue() - tail.medianA().longValue(), tail.absChange().longValue());
        assertEquals(Verdict.SIGNIFICANT, tail.verdict());
        // 6 vs 6 completely separated: U = 0, z = −18/sqrt(36·13/12); two-sided p = 2Φ(z), computed
        // independently (Python, math.erfc) as 0.003947751856903463.
        assertEquals(0.003947751856903463, tail.pValue(), 1e-12);

        MetricChange steps = d.metric(Metric.STEP_TIME);
        assertNear(7 * MS, steps.medianA(), 0.02, "step A");
        assertNear(14 * MS, steps.medianB(), 0.02, "step B");
        assertEquals(Verdict.SIGNIFICANT, steps.verdict());
        MetricChange overlap = d.metric(Metric.OVERLAP);
        assertEquals(2.0 / 3.0, overlap.medianA().doubleValue(), 0.02);
        assertEquals(1.0 / 3.0, overlap.medianB().doubleValue(), 0.02);
        // Same bucket count and sizes on both sides: no change, and the test says so.
        MetricChange count = d.metric(Metric.GRAD_COLLECTIVES);
        assertEquals(3L, count.medianA());
        assertEquals(0L, count.absChange());
        assertEquals(Verdict.NOT_SIGNIFICANT, count.verdict());
        assertEquals(26_214_400L, d.metric(Metric.MEAN_GRAD_BUCKET_BYTES).medianB());
    }

    @Test
    void structureShowsLastBucketThenCommBound() {
        DiffReport d = DiffReport.compare(oneMs, fourMs, OPTIONS, 0.05, "test");
        BucketLayout a = d.structure().a();
        BucketLayout b = d.structure().b();
        assertEquals(List.of(26_214_400L, 26_214_400L, 26_214_400L), a.layout());
        assertEquals(6, a.layoutSteps());
        assertEquals(3L, a.bucketsPerStep());
        assertEquals(3, a.lastBucketIndex());
        assertNear(MS, a.lastReduceNs(), 0.02, "last reduce A");
        assertNear(4 * MS, b.lastReduceNs(), 0.02, "last reduce B");
        assertEquals(TailKind.LAST_BUCKET, a.tailKind());
        assertEquals(Map.of(TailKind.LAST_BUCKET, 6), a.tailKinds());
        assertEquals(TailKind.COMM_BOUND, b.tailKind());
        assertEquals(Map.of(TailKind.COMM_BOUND, 6), b.tailKinds());
        // §7: g3 QUEUE → g2 QUEUE → g1 DATA.
        assertEquals(List.of(BoundBy.QUEUE, BoundBy.QUEUE, BoundBy.DATA),
                b.tailChain().stream().map(l -> l.boundBy()).toList());
        assertFalse(d.structure().layoutChanged());
        assertTrue(d.structure().attributionChanged());
    }

    @Test
    void aRunAgainstItselfChangesNothing() {
        DiffReport d = DiffReport.compare(fourMs, fourMs, OPTIONS, 0.05, "test");
        for (MetricChange c : d.metrics()) {
            if (c.verdict() == Verdict.NOT_AVAILABLE) {
                continue;
            }
            assertEquals(Verdict.NOT_SIGNIFICANT, c.verdict(), c.metric());
            assertEquals(1.0, c.pValue(), 0.0, c.metric());
            assertEquals(0.0, c.absChange().doubleValue(), 0.0, c.metric());
        }
        assertFalse(d.structure().attributionChanged());
    }

    @Test
    void gateFailsOnTheTailPassesOnItselfAndOnJitter() {
        GateReport regression = GateReport.evaluate(oneMs, fourMs, GateThreshold.defaults(), OPTIONS, 0.05, "t");
        assertEquals(GateStatus.REGRESSION, regression.result());
        assertEquals(List.of("tail", "exposedComm", "stepTime"), regression.checks().stream().map(GateCheck::metric).toList());
        regression.checks().forEach(c -> assertEquals(GateStatus.REGRESSION, c.status(), c.metric()));

        GateReport self = GateReport.evaluate(fourMs, fourMs, GateThreshold.defaults(), OPTIONS, 0.05, "t");
        assertEquals(GateStatus.PASS, self.result());

        GateReport jitter = GateReport.evaluate(oneMs, oneMsOtherJitter, GateThreshold.defaults(), OPTIONS, 0.05, "t");
        assertEquals(GateStatus.PASS, jitter.result(), () -> jitter.checks().toString());
        // The jitter run really differs (else this would prove nothing): its medians are not the baseline's.
        assertTrue(jitter.checks().stream().anyMatch(c -> c.absChange().longValue() != 0));

        // An improvement never fails: the 4 ms run as baseline, the 1 ms run as current.
        assertEquals(GateStatus.PASS,
                GateReport.evaluate(fourMs, oneMs, GateThreshold.defaults(), OPTIONS, 0.05, "t").result());
    }

    @Test
    void stepsListTheirGradientBuckets() {
        StepReport s = fourMs.ranks().get(0).steps().get(0);
        List<BucketReport> buckets = s.gradBuckets();
        assertEquals(3, buckets.size());
        assertEquals(s.gradCollectives(), buckets.size());
        for (int i = 0; i < 3; i++) {
            BucketReport b = buckets.get(i);
            assertEquals(26_214_400L, b.bytes());
            assertEquals("ALL_REDUCE", b.type());
            assertEquals(b.endNs() - b.startNs(), b.durationNs());
            assertEquals(i == 2, b.last());
            assertNear(4 * MS, b.durationNs(), 0.02, "bucket " + i);
        }
        assertEquals(s.markers().lastReduceEndNs(), buckets.get(2).endNs());
        assertEquals(s.markers().reduceStartNs(), buckets.get(0).startNs());
        // The tail chain and the bucket list name the same collective.
        assertEquals(buckets.get(2).collective(), s.attribution().chain().get(0).collective());
        assertNull(oneMs.ranks().get(0).steps().stream().filter(StepReport::partial).findAny().orElse(null));
    }
}
