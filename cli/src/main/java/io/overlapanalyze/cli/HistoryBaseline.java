package io.overlapanalyze.cli;

import io.overlapanalyze.reportfile.RunLoader;
import io.overlapanalyze.cli.history.HistoryRun;
import io.overlapanalyze.cli.history.RunHistory;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.reportfile.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code gate --baseline-history DB [--last N] [--branch NAME]} (a picocli mixin): the baseline pooled from the
 * last N passing runs of a run history. One run is noisy; the samples of ten are a baseline a single slow
 * machine does not move.
 */
final class HistoryBaseline {
    @Option(names = "--baseline-history", paramLabel = "DB",
            description = "The baseline: the last passing runs in this run history (a SQLite file or a JDBC URL "
                    + "that 'summary --history' appends to), their steps pooled.")
    String database;

    @Option(names = "--last", paramLabel = "N",
            description = "With --baseline-history: how many of the latest passing runs (default 10).")
    Integer last;

    @Option(names = "--branch", paramLabel = "NAME",
            description = "With --baseline-history: only runs of this branch (default: every branch).")
    String branch;

    static final int DEFAULT_LAST = 10;

    /** Exactly one baseline; {@code --last} and {@code --branch} only with a history. */
    void checkUsage(Path baseline) {
        if (baseline == null && database == null) {
            throw new UserInputException("give the baseline: --baseline BASE or --baseline-history DB");
        }
        if (baseline != null && database != null) {
            throw new UserInputException("--baseline and --baseline-history: give one baseline");
        }
        if (database == null && (last != null || branch != null)) {
            throw new UserInputException("--last and --branch choose runs of a history: give --baseline-history DB");
        }
        if (last != null && last < 1) {
            throw new UserInputException("--last " + last + ": give at least 1 run");
        }
    }

    /** The history's file, so no output is ever written onto it; none for a JDBC URL or without a history. */
    List<Path> files() {
        if (database == null || database.startsWith("jdbc:") || database.isBlank()) {
            return List.of();
        }
        try {
            return List.of(Path.of(database));
        } catch (java.nio.file.InvalidPathException e) {
            return List.of();
        }
    }

    /** The pooled baseline; no such run, a missing or damaged history: exit 2 with one line. */
    RunLoader.Loaded load(PipelineInput in) {
        int n = last == null ? DEFAULT_LAST : last;
        List<HistoryRun> runs = RunHistory.read(database, new RunHistory.Query(branch, true, n));
        String shown = database.startsWith("jdbc:") ? database.replaceFirst("\\?.*", "") : database;
        String which = (branch == null ? "" : " of branch " + branch);
        if (runs.isEmpty()) {
            throw new UserInputException(Messages.printable(shown) + ": no passing run" + which
                    + " in the run history (append runs with 'summary --history')");
        }
        List<AnalysisReport> reports = new ArrayList<>();
        for (HistoryRun r : runs) {
            reports.add(SummaryFile.read(r.source(shown), r.summary()));
        }
        long first = runs.get(0).id();
        long lastId = runs.get(runs.size() - 1).id();
        String label = shown + " (last " + (runs.size() == 1 ? "passing run" + which + ", run " + first
                : runs.size() + " passing runs" + which + ", runs " + first + "-" + lastId) + ")";
        return RunLoader.pooled(label, reports, in);
    }
}
