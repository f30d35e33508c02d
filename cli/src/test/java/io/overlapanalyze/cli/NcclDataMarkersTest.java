package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Acceptance: markers, tail and attribution on the real ResNet DDP trace (nccl_data) equal the
 * values derived independently from the raw JSON, as written down (with how) in
 * docs/reference/nccl_data_markers.md.
 */
class NcclDataMarkersTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // step, deviceStart(abs), firstBucketReady, reduceStart, lastComputeEnd, lastReduceEnd, tail, startDelay, launchLate
            "ProfilerStep#4, 1716423322422880181, 101640203, 101835913, 183994170, 185684963, 1690793, 195710, 74751",
            "ProfilerStep#5, 1716423322644934992, 101202162, 101369455, 182195186, 184228279, 2033093, 167293, 59712",
            "ProfilerStep#6, 1716423322864667147, 100855670, 101066867, 187388812, 189519376, 2130564, 211197, 81997"})
    void markersTailAndAttributionMatchTheHandDerivation(String step, long deviceStart, long firstReady,
                                                         long reduceStart, long lastComputeEnd, long lastReduceEnd,
                                                         long tail, long startDelay, long launchLate) throws Exception {
        RankReport rank = RankAnalyzer.analyze(
                TraceFormats.standard().read(SharedTraces.kineto("hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz")).get(0),
                AnalysisOptions.defaults());
        StepReport s = rank.steps().stream().filter(x -> x.name().equals(step)).findFirst().orElseThrow();
        assertFalse(s.partial());
        assertEquals(deviceStart, s.deviceStartNs());
        assertEquals(5, s.gradCollectives(), "5 DDP buckets per step");
        assertEquals(deviceStart + firstReady, s.markers().firstBucketReadyNs());
        assertEquals(deviceStart + reduceStart, s.markers().reduceStartNs());
        assertEquals(deviceStart + lastComputeEnd, s.markers().lastComputeEndNs());
        assertEquals(deviceStart + lastReduceEnd, s.markers().lastReduceEndNs());
        assertEquals(tail, s.tailNs());
        assertEquals(tail, s.lastBucketTailNs());
        assertEquals(startDelay, s.startDelayNs());
        assertEquals(launchLate, s.launchLateNs());
        assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
        assertEquals(1, s.attribution().chain().size());
        assertEquals(BoundBy.DATA, s.attribution().chain().get(0).boundBy());
        assertEquals(2_431_040L * 4, s.attribution().chain().get(0).bytes(), "the last bucket: 2,431,040 floats");
    }
}
