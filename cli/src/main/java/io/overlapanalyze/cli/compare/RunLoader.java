package io.overlapanalyze.cli.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.RankAnalyzer;
import io.overlapanalyze.cli.StepSelection;
import io.overlapanalyze.cli.TraceLoader;
import io.overlapanalyze.cli.UserInputException;
import io.overlapanalyze.compare.Run;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns one side of a diff or gate (trace files, a directory of them, or a saved summary) into a
 * {@link Run}. Traces are analysed as the main command does; a summary is read back as it was
 * written. A side mixing traces and summaries is refused: the same rank would likely count twice.
 */
public final class RunLoader {
    private RunLoader() {
    }

    /**
     * @param label     what to call the run (the path as typed)
     * @param paths     its files and directories
     * @param options   analysis options (partial steps)
     * @param selection {@code --steps}, or {@code null}
     * @param inputs    receives every file read, so outputs never overwrite one
     */
    public static Run load(String label, List<Path> paths, AnalysisOptions options, StepSelection selection,
                           List<Path> inputs) {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            files.addAll(TraceLoader.expand(p));
        }
        inputs.addAll(files);
        List<RankReport> ranks = new ArrayList<>();
        List<String> stepNames = new ArrayList<>();
        Set<String> writers = new LinkedHashSet<>();
        int summaries = 0;
        int traces = 0;
        for (Path f : files) {
            switch (SummaryFile.classify(f)) {
                case SUMMARY -> {
                    AnalysisReport r = SummaryFile.read(f);
                    writers.add(r.tool() == null ? "an unknown version" : r.tool());
                    for (RankReport rank : r.ranks()) {
                        rank.steps().forEach(st -> stepNames.add(st.name()));
                        ranks.add(selection == null ? rank : RankAnalyzer.selectSteps(rank, selection, options));
                    }
                    summaries++;
                }
                case OTHER_RESULT -> throw new UserInputException(f + ": is a diff or gate result, not a summary "
                        + "or trace (write a summary with 'overlap-analyze summary')");
                default -> {
                    for (RankTrace t : TraceLoader.load(f)) {
                        RankReport rank = RankAnalyzer.analyze(t, options);
                        rank.steps().forEach(st -> stepNames.add(st.name()));
                        ranks.add(selection == null ? rank : RankAnalyzer.selectSteps(rank, selection, options));
                    }
                    traces++;
                }
            }
        }
        if (summaries > 0 && traces > 0) {
            throw new UserInputException(label + ": mixes saved summaries and traces; give one or the other");
        }
        if (selection != null) {
            selection.requireAnyMatch(stepNames);
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(r -> String.valueOf(r.source())));
        String origin = summaries > 0 ? "summary by " + String.join(", ", writers) : "traces";
        Run run = new Run(label, origin, ranks);
        if (run.aggregatedSteps(options).isEmpty()) {
            throw new UserInputException(label + ": no complete step with device work to compare"
                    + (options.includePartial() ? "" : " (partial steps count only with --include-partial)"));
        }
        return run;
    }

    /** Analyses traces into a report, as {@code overlap-analyze --format json} does. */
    public static AnalysisReport analyze(List<Path> paths, AnalysisOptions options, StepSelection selection,
                                         String tool) {
        List<RankReport> ranks = new ArrayList<>();
        List<String> stepNames = new ArrayList<>();
        for (RankTrace t : TraceLoader.loadAll(paths)) {
            RankReport rank = RankAnalyzer.analyze(t, options);
            rank.steps().forEach(st -> stepNames.add(st.name()));
            ranks.add(selection == null ? rank : RankAnalyzer.selectSteps(rank, selection, options));
        }
        if (selection != null) {
            selection.requireAnyMatch(stepNames);
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(RankReport::source));
        return new AnalysisReport(AnalysisReport.SCHEMA_VERSION, tool, ranks);
    }
}
