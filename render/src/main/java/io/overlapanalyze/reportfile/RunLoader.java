package io.overlapanalyze.reportfile;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.compare.Run;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineInputException;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.pipeline.StepSelection;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.RankReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one side of a diff or gate (trace files, a directory of them, or a saved summary) into a
 * {@link Run}. Traces are analysed by the same pipeline as in every command; a summary is read back as it was
 * written. A side mixing traces and summaries is refused: the same rank would likely count twice.
 */
public final class RunLoader {
    private RunLoader() {
    }

    /**
     * One side, loaded.
     *
     * @param run        the analysed ranks
     * @param unreadable trace files that could not be read (the others are in the run), one line each
     * @param skipped    files found in directories that are neither traces nor summaries, one line each
     * @param wholeProfileOnly the run has no complete step, only partial ones (a capture without step
     *                   ranges is one partial step, "all"): it can be compared only as whole profiles
     */
    public record Loaded(Run run, List<String> unreadable, List<String> skipped, boolean wholeProfileOnly) {
        public Loaded {
            unreadable = List.copyOf(unreadable);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * What each file of a side is (a saved summary, another result of this tool, or neither), told
     * once per file from what the expansion sniffed of it ({@link SummaryFile#classify(Path, SniffedInput, TraceFormats)}):
     * given to the expansion as the files to keep that are no trace, and shown the files the user named
     * too, so that a trace is opened once for this, the walk's check and the read; then read back by {@link #load}.
     */
    public static final class Kinds implements TraceFormats.Keep {
        private final Map<Path, SummaryFile.Content> kinds = new HashMap<>();
        private final TraceFormats formats;

        /** @param formats the front door that expands the side (what it sniffed is what this is told from) */
        public Kinds(TraceFormats formats) {
            this.formats = formats;
        }

        SummaryFile.Content of(Path file) {
            return kinds.computeIfAbsent(file, f -> SummaryFile.classify(f, null, formats));
        }

        /** Keeps a saved summary or another result found in a directory (it is named, not passed over). */
        @Override
        public boolean keep(Path file, SniffedInput sniffed) {
            return kinds.computeIfAbsent(file, f -> SummaryFile.classify(f, sniffed, formats))
                    != SummaryFile.Content.NOT_SUMMARY;
        }

        @Override
        public boolean looksAtNamedFiles() {
            return true;
        }
    }

    /**
     * @param label     what to call the run (the path as typed)
     * @param in        how to read its traces; they go through {@link AnalysisPipeline}, as for every command
     * @param expanded  its files, expanded once by the command with {@code kinds} as what to keep
     * @param kinds     what the expansion found each file to be
     * @param crossRank analyse the ranks of traces together too (a gate's current run: a job that would hang
     *                  must not pass); a summary's saved cross-rank section is kept either way
     */
    public static Loaded load(String label, PipelineInput in, TraceFormats.Expanded expanded, Kinds kinds,
                              boolean crossRank) {
        List<Path> files = expanded.files();
        StepSelection selection = in.steps();
        AnalysisOptions options = in.options();
        List<RankReport> ranks = new ArrayList<>();
        List<String> stepNames = new ArrayList<>();
        Set<String> writers = new LinkedHashSet<>();
        List<Path> traces = new ArrayList<>();
        CrossRankReport cross = null;
        Map<Integer, Path> summaryOfRank = new HashMap<>();
        int summaries = 0;
        for (Path f : files) {
            switch (kinds.of(f)) {
                case SUMMARY -> {
                    AnalysisReport r = SummaryFile.read(f);
                    writers.add(r.tool() == null ? "an unknown version" : r.tool());
                    // One summary is one job: its saved cross-rank section speaks for it (with several, the
                    // first that has one; they are not merged).
                    cross = cross == null ? r.crossRank() : cross;
                    for (RankReport rank : r.ranks()) {
                        Path before = summaryOfRank.putIfAbsent(rank.rank(), f);
                        if (before != null) {
                            // Within one summary SummaryFile refuses it; across two the samples would count twice too.
                            throw new PipelineInputException(label + ": rank " + rank.rank() + " is in two summaries ("
                                    + before + " and " + f + "): its samples would count twice");
                        }
                        rank.steps().forEach(st -> stepNames.add(st.name()));
                        ranks.add(selection == null ? rank : RankAnalyzer.selectSteps(rank, selection, options));
                    }
                    summaries++;
                }
                case OTHER_RESULT -> throw new PipelineInputException(f + ": its \"kind\" says it is another result of "
                        + "this tool (a diff or gate), not a summary "
                        + "or trace (write a summary with 'overlap-analyze summary')");
                default -> traces.add(f);
            }
        }
        if (summaries > 0 && !traces.isEmpty()) {
            throw new PipelineInputException(label + ": mixes saved summaries and traces; give one or the other");
        }
        if (selection != null && summaries > 0) {
            selection.requireAnyMatch(stepNames);
        }
        List<String> unreadable = List.of();
        if (!traces.isEmpty()) {
            PipelineResult result = AnalysisPipeline.analyse(new TraceFormats.Expanded(traces, List.of(),
                            expanded.unreadableDirectories(), expanded.sniffed(), expanded.sniffedUnder()),
                    in.withCrossRank(crossRank), null);
            ranks.addAll(result.report().ranks());
            cross = result.report().crossRank();
            unreadable = result.unreadableLines();
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(r -> String.valueOf(r.source())));
        String origin = summaries > 0 ? "summary by " + String.join(", ", writers) : "traces";
        Run run = new Run(label, origin, ranks, cross);
        // A run whose ranks would hang (a cross-rank ERROR: a Flight Recorder dump set of a hung job
        // has no step at all) is still a run to judge: the gate fails it rather than refusing it.
        boolean wouldHang = crossRank && run.crossRankErrors() != null && !run.crossRankErrors().isEmpty();
        if (!wouldHang) {
            requireAStep(run, options);
        }
        return new Loaded(run, unreadable, expanded.skipped(), partialOnly(run, options));
    }

    /** Refuses a run with no step at all with device work, complete or partial: nothing to compare. */
    private static void requireAStep(Run run, AnalysisOptions options) {
        if (run.aggregatedSteps(options.withIncludePartial(true)).isEmpty()) {
            throw new PipelineInputException(run.label() + ": no step with device work to compare");
        }
    }

    /** True when the run has partial steps only (a capture without step ranges): comparable as a whole profile. */
    private static boolean partialOnly(Run run, AnalysisOptions options) {
        return run.aggregatedSteps(options).isEmpty() && !run.aggregatedSteps(options.withIncludePartial(true)).isEmpty();
    }

    /**
     * The options two sides are compared with, and what to tell the user about it. Sides that both
     * lack a complete step (captures without step ranges) are compared as whole profiles: partial
     * steps count, with a warning saying so and how to get steps. One side with steps and one
     * without cannot be compared (a whole capture is no step).
     *
     * @throws PipelineInputException when exactly one side has no complete step
     */
    public static Comparison comparison(AnalysisOptions options, String nameA, Loaded a, String nameB, Loaded b) {
        if (!a.wholeProfileOnly() && !b.wholeProfileOnly()) {
            return new Comparison(options, List.of());
        }
        Loaded stepless = a.wholeProfileOnly() ? a : b;
        Loaded other = a.wholeProfileOnly() ? b : a;
        if (!other.wholeProfileOnly() && !other.run().aggregatedSteps(options).isEmpty()) {
            throw new PipelineInputException(stepless.run().label() + ": no complete step with device work, while "
                    + other.run().label() + " has steps: a whole capture cannot be compared with steps. " + STEP_HINT);
        }
        return new Comparison(options.withIncludePartial(true), List.of("neither " + nameA + " nor " + nameB
                + " has a complete step: comparing whole profiles (each rank's capture as one step, 'all'; "
                + "per-rank totals and the work launched before each capture are shown beside). " + STEP_HINT));
    }

    /** How to get steps, for messages about captures without them. */
    static final String STEP_HINT = "To compare steps, record a range around each iteration: the PyTorch profiler "
            + "marks ProfilerStep#N by itself (a schedule with active steps); for Nsight, an NVTX range per "
            + "iteration, named by --step-pattern REGEX";

    /**
     * How two sides are compared.
     *
     * @param options  the analysis options to compare with (partial steps included for whole profiles)
     * @param warnings what the user must know about it
     */
    public record Comparison(AnalysisOptions options, List<String> warnings) {
        public Comparison {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * A baseline pooled from several saved summaries (a run history's last passing runs): every rank of every
     * run, so each (rank, step) of each run is one sample, read back through {@link SummaryFile}'s checks by the
     * caller. Ranks repeat across runs by design (the same job, run again); the steps are selected as for one
     * summary.
     *
     * @param label   what to call the baseline ("runs.db (last 10 passing runs of main)")
     * @param reports the runs' summaries, read
     * @param in      the step selection and options
     */
    public static Loaded pooled(String label, List<AnalysisReport> reports, PipelineInput in) {
        StepSelection selection = in.steps();
        AnalysisOptions options = in.options();
        List<RankReport> ranks = new ArrayList<>();
        List<String> stepNames = new ArrayList<>();
        Set<String> writers = new LinkedHashSet<>();
        for (AnalysisReport r : reports) {
            writers.add(r.tool() == null ? "an unknown version" : r.tool());
            for (RankReport rank : r.ranks()) {
                rank.steps().forEach(st -> stepNames.add(st.name()));
                ranks.add(selection == null ? rank : RankAnalyzer.selectSteps(rank, selection, options));
            }
        }
        if (selection != null) {
            selection.requireAnyMatch(stepNames);
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank));
        Run run = new Run(label, (reports.size() == 1 ? "1 summary" : reports.size() + " summaries") + " by "
                + String.join(", ", writers), ranks, null);
        requireAStep(run, options);
        return new Loaded(run, List.of(), List.of(), partialOnly(run, options));
    }

    /**
     * The report's warnings with each side's unreadable inputs after them, prefixed with the side
     * as the rank warnings are ("A: …", "current: …").
     */
    public static List<String> withUnreadable(List<String> warnings, String nameA, Loaded a, String nameB, Loaded b) {
        List<String> out = new ArrayList<>(warnings);
        a.unreadable().forEach(w -> out.add(nameA + ": " + w));
        b.unreadable().forEach(w -> out.add(nameB + ": " + w));
        return out;
    }

    /** Both sides' skipped files, each once. */
    public static List<String> skipped(Loaded a, Loaded b) {
        Set<String> out = new LinkedHashSet<>(a.skipped());
        out.addAll(b.skipped());
        return new ArrayList<>(out);
    }
}
