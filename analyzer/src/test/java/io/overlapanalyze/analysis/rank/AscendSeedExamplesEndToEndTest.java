package io.overlapanalyze.analysis.rank;


import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.TraceFormat;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Acceptance (Ascend issue, point 1): the seed's worked examples (metrics.md §7) come out exactly
 * when written as torch_npu captures ({@code <name>_ascend_pt} with trace_view.json) and read back
 * through the front door (directory → Ascend reader). Expected values are the §7 table, in ms.
 */
class AscendSeedExamplesEndToEndTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // scenario,        optimizerMs, commMs
            "seed-1ms,           0, 1",
            "seed-4ms,           0, 4",
            "seed-1ms-optimizer, 1, 1",
            "seed-4ms-optimizer, 1, 4"})
    void seedTableHoldsExactly(String scenario, int withOptimizer, int commMs) throws Exception {
        Path dir = tmp.resolve(AscendScenarioWriter.directoryName(BuiltinScenarios.get(scenario)));
        AscendScenarioWriter.write(BuiltinScenarios.get(scenario), dir);
        List<Path> inputs = TraceFormats.standard().expand(dir);
        assertEquals(List.of(dir), inputs, "the capture directory is one input");
        List<RankTrace> traces = TraceFormats.standard().read(dir);
        assertEquals(1, traces.size());
        assertEquals(TraceFormat.ASCEND, traces.get(0).format());
        assertEquals(3, traces.get(0).collectives().size());
        RankReport rank = RankAnalyzer.analyze(traces.get(0), AnalysisOptions.defaults());
        assertEquals(List.of(), rank.notes(), "no fallback was needed");
        assertEquals(1, rank.steps().size(), "one step");
        StepReport s = rank.steps().get(0);
        SeedTable.assertHolds(s, scenario, withOptimizer, commMs);
    }

}
