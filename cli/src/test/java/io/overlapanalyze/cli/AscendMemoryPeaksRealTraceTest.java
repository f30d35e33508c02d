package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.beyond.MemoryAnalysis;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Ascend memory records: peak allocated memory of ProfilerStep#50 of the real torch_npu
 * captures, text export (memory_record.csv) and DB export (MEMORY_RECORD), equals the values
 * derived independently from the raw files by docs/reference/derive_ascend_memory_peaks.py,
 * recorded in docs/reference/memory_peaks_ascend.md. The text and DB exports are two separate
 * runs of the same job: their whole-step peaks agree (steady state), their first-20-ms peaks and
 * timestamps do not, as the derivation shows.
 */
class AscendMemoryPeaksRealTraceTest {
    private static Path capture(String sub) {
        Path p = SharedTraces.root().resolve("ascend").resolve(sub);
        Assumptions.assumeTrue(Files.isDirectory(p), "shared Ascend capture " + p + " not found: skipping");
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "torch_npu_text_level1/rank0_ascend_pt, 381, 1736408883686740710, 1245688832, 1103489536",
            "torch_npu_text_level1/rank1_ascend_pt, 381, 1736408883688868080, 1245688832, 1060185088",
            "torch_npu_db_level1/rank0_ascend_pt, 381, 1736410576386409710, 1245688832, 1129099776",
            "torch_npu_db_level1/rank1_ascend_pt, 381, 1736410576389878870, 1245688832, 1129099776"})
    void peakAllocatedOfProfilerStep50MatchesTheDerivation(String sub, int ptaSamples, long hostStart, long peak,
                                                             long peakFirst20ms) throws Exception {
        List<RankTrace> traces = TraceFormats.standard().read(capture(sub));
        assertEquals(1, traces.size());
        RankTrace trace = traces.get(0);
        assertEquals(ptaSamples, trace.memory().size(), "PTA rows of NPU:0, as the script counts");

        RankReport rank = RankAnalyzer.analyze(trace, AnalysisOptions.defaults());
        assertNull(rank.notAvailable().memory());
        assertEquals(1, rank.steps().size());
        StepReport s = rank.steps().get(0);
        assertEquals("ProfilerStep#50", s.name());
        assertEquals(peak, s.peakAllocatedBytes());

        assertEquals(peakFirst20ms, MemoryAnalysis.of(trace).peak(hostStart, hostStart + 20_000_000L),
                "peak over [start, start + 20 ms)");
    }
}
