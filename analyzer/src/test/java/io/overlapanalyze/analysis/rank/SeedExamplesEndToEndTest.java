package io.overlapanalyze.analysis.rank;


import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Acceptance: the seed's worked examples (metrics.md §7) come out exactly, through the whole
 * product: the scenario generator writes a Kineto trace, the reader reads it back, the analyzer
 * computes. Expected values are the §7 table ({@link SeedTable}).
 */
class SeedExamplesEndToEndTest {
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
        Path trace = tmp.resolve(scenario + ".pt.trace.json");
        try (OutputStream out = Files.newOutputStream(trace)) {
            KinetoScenarioWriter.write(BuiltinScenarios.get(scenario), out);
        }
        RankReport rank = RankAnalyzer.analyze(TraceFormats.standard().read(trace).get(0), AnalysisOptions.defaults());
        assertEquals(1, rank.steps().size(), "one step");
        StepReport s = rank.steps().get(0);
        SeedTable.assertHolds(s, scenario, withOptimizer, commMs);
    }
}
