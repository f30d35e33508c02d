package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs made the way users make them: the scenario generator writes a trace, the reader reads it, the analyzer analyses it. */
final class SynthRuns {
    static final long MS = 1_000_000L;

    private SynthRuns() {
    }

    /** A built-in scenario with {@code steps} steps and {@code jitterPct} jitter from {@code seed}. */
    static Scenario seed(String name, int steps, double jitterPct, long seed) {
        return BuiltinScenarios.get(name).withSteps(steps).withJitter(jitterPct, seed);
    }

    static Run run(Path dir, String label, Scenario scenario) throws IOException, io.overlapanalyze.formats.input.TraceFormatException {
        Path file = dir.resolve(label + ".pt.trace.json");
        KinetoScenarioWriter.write(scenario, file);
        List<RankReport> ranks = new ArrayList<>();
        for (RankTrace t : new KinetoReader().read(file)) {
            ranks.add(RankAnalyzer.analyze(t, AnalysisOptions.defaults()));
        }
        return new Run(label, "traces", ranks);
    }
}
