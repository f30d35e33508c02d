package io.overlapanalyze.cli.pipeline;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.RankAnalyzer;
import io.overlapanalyze.cli.JobLoader;
import io.overlapanalyze.cli.Messages;
import io.overlapanalyze.cli.RankNaming;
import io.overlapanalyze.cli.StepSelection;
import io.overlapanalyze.cli.TraceLoader;
import io.overlapanalyze.cli.UserInputException;
import io.overlapanalyze.cli.Version;
import io.overlapanalyze.crossrank.CrossRankAnalyzer;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.RankReport;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * The analysis of a job, owned by no command: expand the inputs, read every rank (in parallel;
 * one bad file among several is named, not fatal), analyse each rank alone, select steps, and,
 * with several inputs, analyse across ranks. Every command that reads traces goes through it, so
 * they all treat inputs alike.
 */
public final class AnalysisPipeline {
    private AnalysisPipeline() {
    }

    /**
     * The files the paths stand for, and the files found in directories that are not traces.
     *
     * @param files   the inputs to read, in order, without duplicates
     * @param skipped one line per file left out, naming it and why
     */
    public record Expanded(List<Path> files, List<String> skipped) {
        public Expanded {
            files = List.copyOf(files);
            skipped = List.copyOf(skipped);
        }
    }

    /** {@link #run(PipelineInput, PrintWriter)} without progress output. */
    public static PipelineResult run(PipelineInput in) {
        return run(in, null);
    }

    /**
     * Expands, reads and analyses the inputs.
     *
     * @param progress where a long read shows its progress (a terminal only), or {@code null}
     */
    public static PipelineResult run(PipelineInput in, PrintWriter progress) {
        return analyse(expand(in.paths(), in.nameFilter(), f -> false), in, progress);
    }

    /**
     * Expands the paths ({@link TraceLoader#expand(Path, PathMatcher)}); a file found by walking a
     * directory or matching a glob that is not a trace by content ({@link TraceContent}) is left
     * out with a line saying so, unless {@code keep} accepts it (a saved summary, for diff and
     * gate). A file named on the command line is always read: the user asked for it.
     */
    public static Expanded expand(List<Path> paths, PathMatcher nameFilter, Predicate<Path> keep) {
        LinkedHashSet<Path> files = new LinkedHashSet<>();
        List<String> skipped = new ArrayList<>();
        for (Path p : paths) {
            List<Path> found = TraceLoader.expand(p, nameFilter);
            boolean walked = !found.equals(List.of(p));
            for (Path f : found) {
                String why = walked && !keep.test(f) ? TraceContent.notATrace(f) : null;
                if (why != null) {
                    skipped.add(Messages.quote(f) + ": " + why + ", skipped");
                } else {
                    files.add(f);
                }
            }
        }
        if (files.isEmpty() && !skipped.isEmpty()) {
            throw new UserInputException(skipped.get(0).replaceFirst(", skipped$", "")
                    + (skipped.size() > 1 ? " (and " + (skipped.size() - 1) + " more)" : "") + ": no trace to read");
        }
        return new Expanded(new ArrayList<>(files), skipped);
    }

    /** Reads and analyses expanded inputs (see {@link #run(PipelineInput, PrintWriter)}); ignores {@code in.paths()}. */
    public static PipelineResult analyse(Expanded expanded, PipelineInput in, PrintWriter progress) {
        StepSelection selection = in.steps();
        AnalysisOptions options = in.options();
        RankNaming naming = new RankNaming(in.rankRegex());
        List<Path> files = expanded.files();
        Queue<String> stepNames = new ConcurrentLinkedQueue<>();
        JobLoader.Loaded loaded = JobLoader.load(files, naming, options, in.stepPattern(), r -> {
            if (selection == null) {
                return r;
            }
            r.steps().forEach(s -> stepNames.add(s.name()));
            return RankAnalyzer.selectSteps(r, selection, options);
        }, progress);
        if (selection != null) {
            selection.requireAnyMatch(stepNames);
        }
        List<RankReport> ranks = new ArrayList<>();
        for (RankInput input : loaded.inputs()) {
            ranks.add(input.report());
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(r -> String.valueOf(r.source())));
        CrossRankReport crossRank = in.crossRank() && (files.size() > 1 || loaded.inputs().size() > 1)
                ? CrossRankAnalyzer.analyze(loaded.inputs(), loaded.problems()) : null;
        AnalysisReport report = new AnalysisReport(AnalysisReport.SCHEMA_VERSION, Version.tool(), ranks, crossRank);
        List<io.overlapanalyze.report.InputProblem> unreadable = loaded.problems().stream()
                .filter(p -> io.overlapanalyze.report.InputProblem.UNREADABLE.equals(p.kind())).toList();
        return new PipelineResult(report, loaded.inputs(), unreadable, expanded.skipped());
    }
}
