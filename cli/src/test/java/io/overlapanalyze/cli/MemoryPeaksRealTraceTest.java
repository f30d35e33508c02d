package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.beyond.MemoryAnalysis;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Peak allocated memory per step of the real df_index_resolver trace
 * (the one shared trace with [memory] events) equals the values derived independently from the
 * raw JSON by docs/reference/derive_memory_peaks.py, recorded in
 * docs/reference/memory_peaks_df_index_resolver.md.
 */
class MemoryPeaksRealTraceTest {
    @Test
    void peakAllocatedPerStepMatchesTheHandDerivation() throws Exception {
        RankReport rank = RankAnalyzer.analyze(
                TraceFormats.standard().read(SharedTraces.kineto("hta_df_index_resolver_rank1of2_v100_memory.json.gz")).get(0),
                AnalysisOptions.defaults());
        assertNull(rank.notAvailable().memory());
        List<String> names = rank.steps().stream().map(StepReport::name).toList();
        assertEquals(List.of("ProfilerStep#2", "ProfilerStep#3", "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6"),
                names);
        for (StepReport s : rank.steps()) {
            assertEquals(6_629_508_096L, s.peakAllocatedBytes(), s.name());
        }
    }

    /** Whole-step peaks are all equal (steady state), so also a window where the steps differ. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "ProfilerStep#2, 1669783687384669000, 5690599424",
            "ProfilerStep#3, 1669783687730492000, 5689607168",
            "ProfilerStep#4, 1669783688095792000, 5690599424",
            "ProfilerStep#5, 1669783688441933000, 5690599424",
            "ProfilerStep#6, 1669783688786243000, 5721188352"})
    void peakInTheFirst100msOfEachStep(String step, long hostStart, long peak) throws Exception {
        RankTrace trace = TraceFormats.standard().read(
                SharedTraces.kineto("hta_df_index_resolver_rank1of2_v100_memory.json.gz")).get(0);
        assertEquals(26_770, countCudaDevice1(trace), "CUDA samples of device 1, as the script counts");
        assertEquals(peak, MemoryAnalysis.of(trace).peak(hostStart, hostStart + 100_000_000L), step);
    }

    private static int countCudaDevice1(RankTrace trace) {
        int n = 0;
        for (int i = 0; i < trace.memory().size(); i++) {
            if (trace.memory().device(i) == 1) {
                n++;
            }
        }
        return n;
    }
}
