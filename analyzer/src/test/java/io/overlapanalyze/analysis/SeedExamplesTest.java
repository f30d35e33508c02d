package io.overlapanalyze.analysis;

import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.Markers;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The worked examples of metrics.md §7: every cell of the table, exactly. */
class SeedExamplesTest {

    private static StepReport onlyStep(RankReport report) {
        assertEquals(1, report.steps().size());
        return report.steps().get(0);
    }

    @Test
    void oneMillisecondBucketsAreLastBucketBound() {
        StepReport s = onlyStep(RankAnalyzer.analyze(TraceBuilder.seed(1, 0, true), AnalysisOptions.defaults()));
        assertOneMsCase(s, 0);
    }

    @Test
    void fourMillisecondBucketsAreCommBound() {
        StepReport s = onlyStep(RankAnalyzer.analyze(TraceBuilder.seed(4, 0, true), AnalysisOptions.defaults()));
        assertFourMsCase(s, 0);
    }

    @Test
    void optimizerKernelAfterTheLastReductionOnlyGrowsTimeAndCompute() {
        long opt = MS / 2;
        assertOneMsCase(onlyStep(RankAnalyzer.analyze(TraceBuilder.seed(1, opt, true), AnalysisOptions.defaults())), opt);
        assertFourMsCase(onlyStep(RankAnalyzer.analyze(TraceBuilder.seed(4, opt, true), AnalysisOptions.defaults())), opt);
    }

    private static void assertOneMsCase(StepReport s, long optimizerNs) {
        assertEquals("ProfilerStep#3", s.name());
        assertFalse(s.partial());
        assertFalse(s.approximate());
        assertEquals(3, s.gradCollectives());
        Markers m = s.markers();
        assertEquals(ORIGIN + 2 * MS, m.firstBucketReadyNs());
        assertEquals(ORIGIN + 2 * MS, m.reduceStartNs());
        assertEquals(ORIGIN + 6 * MS, m.lastComputeEndNs());
        assertEquals(ORIGIN + 7 * MS, m.lastReduceEndNs());
        assertEquals(ORIGIN + 6 * MS, m.lastBucketReadyNs());
        assertEquals(1 * MS, s.tailNs());
        assertEquals(1 * MS, s.lastBucketTailNs());
        assertEquals(0L, s.startDelayNs());
        assertEquals(0L, s.launchLateNs());
        assertEquals(ORIGIN, s.deviceStartNs());
        assertEquals(ORIGIN + 7 * MS + optimizerNs, s.deviceEndNs());
        assertEquals(7 * MS + optimizerNs, s.stepTimeNs());
        assertEquals(9 * MS + optimizerNs, s.serialEstimateNs());
        assertEquals(6 * MS + optimizerNs, s.computeBusyNs());
        assertEquals(3 * MS, s.commBusyNs());
        assertEquals(2 * MS, s.overlappedNs());
        assertEquals(1 * MS, s.exposedCommNs());
        assertEquals(1 * MS, s.exposedGradCommNs());
        assertEquals(0L, s.idleNs());
        assertEquals(2 * MS, s.overlapSavingNs());
        assertEquals(2.0 / 3.0, s.overlapRatio());
        assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
        List<ChainLink> chain = s.attribution().chain();
        assertEquals(1, chain.size());
        assertEquals(2, chain.get(0).collective());
        assertEquals(BoundBy.DATA, chain.get(0).boundBy());
        assertEquals(ORIGIN + 6 * MS, chain.get(0).startNs());
        assertEquals(ORIGIN + 6 * MS, chain.get(0).dataReadyNs());
        assertEquals(ORIGIN + 5 * MS, chain.get(0).queueFreeNs());
        assertEquals("ALL_REDUCE", chain.get(0).type());
        assertEquals(25L << 20, chain.get(0).bytes());
    }

    private static void assertFourMsCase(StepReport s, long optimizerNs) {
        assertFalse(s.approximate());
        Markers m = s.markers();
        assertEquals(ORIGIN + 2 * MS, m.firstBucketReadyNs());
        assertEquals(ORIGIN + 2 * MS, m.reduceStartNs());
        assertEquals(ORIGIN + 6 * MS, m.lastComputeEndNs());
        assertEquals(ORIGIN + 14 * MS, m.lastReduceEndNs());
        assertEquals(8 * MS, s.tailNs());
        assertEquals(8 * MS, s.lastBucketTailNs());
        assertEquals(0L, s.startDelayNs());
        assertEquals(0L, s.launchLateNs());
        assertEquals(14 * MS + optimizerNs, s.stepTimeNs());
        assertEquals(18 * MS + optimizerNs, s.serialEstimateNs());
        assertEquals(6 * MS + optimizerNs, s.computeBusyNs());
        assertEquals(12 * MS, s.commBusyNs());
        assertEquals(4 * MS, s.overlappedNs());
        assertEquals(8 * MS, s.exposedCommNs());
        assertEquals(8 * MS, s.exposedGradCommNs());
        assertEquals(0L, s.idleNs());
        assertEquals(1.0 / 3.0, s.overlapRatio());
        assertEquals(TailKind.COMM_BOUND, s.attribution().kind());
        List<ChainLink> chain = s.attribution().chain();
        assertEquals(List.of(2, 1, 0), chain.stream().map(ChainLink::collective).toList());
        assertEquals(List.of(BoundBy.QUEUE, BoundBy.QUEUE, BoundBy.DATA),
                chain.stream().map(ChainLink::boundBy).toList());
        assertEquals(ORIGIN + 10 * MS, chain.get(0).queueFreeNs());
        assertEquals(ORIGIN + 6 * MS, chain.get(0).dataReadyNs());
        assertNull(chain.get(2).queueFreeNs());
    }

    @Test
    void totalsOfOneCompleteStepEqualTheStep() {
        RankReport r = RankAnalyzer.analyze(TraceBuilder.seed(4, 0, true), AnalysisOptions.defaults());
        assertEquals(1, r.totals().steps());
        assertEquals(14 * MS, r.totals().stepTimeNs());
        assertEquals(8 * MS, r.totals().tailNs());
        assertEquals(1.0 / 3.0, r.totals().overlapRatio());
        assertEquals(8 * MS, r.totals().medians().tailNs());
        assertEquals(0L, r.totals().medians().startDelayNs());
        assertEquals(List.of(), r.notes());
    }
}
