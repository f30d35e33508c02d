package io.overlapanalyze.pipeline;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.CommSplitAnalysis;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.crossrank.CrossRankAnalyzer;
import io.overlapanalyze.crossrank.HangAnalysis;
import io.overlapanalyze.crossrank.CrossRankSplits;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.crossrank.StepWaits;
import io.overlapanalyze.crossrank.digest.CrossRankDigest;
import io.overlapanalyze.crossrank.digest.SharedValues;
import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.findings.RankMedians;
import io.overlapanalyze.formats.JobReader;
import io.overlapanalyze.formats.RankNaming;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.RankReport;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The analysis of a job, owned by no command: expand the inputs, read every rank (in parallel;
 * one bad file among several is named, not fatal), analyse each rank alone, select steps, and,
 * with several inputs, analyse across ranks. Every command that reads traces goes through it, so
 * they all treat inputs alike.
 */
public final class AnalysisPipeline {
    private AnalysisPipeline() {
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
        return analyse(expand(in, TraceFormats.Keep.NOTHING), in, progress);
    }

    /** Expands {@code in.paths()} with {@code in.formats()}, as {@link #expand(List, PathMatcher, TraceFormats.Keep)} does. */
    public static TraceFormats.Expanded expand(PipelineInput in, TraceFormats.Keep keep) {
        return expand(in.formats(), in.paths(), in.nameFilter(), keep, in.read().limits());
    }

    /**
     * Expands the paths ({@link TraceFormats#expand(List, PathMatcher, TraceFormats.Keep)}): a file found by
     * walking a directory or matching a glob that is not a trace by content is left out with a line
     * saying so, unless {@code keep} accepts it (a saved summary, for diff and gate). A file named
     * on the command line is always read: the user asked for it.
     */
    public static TraceFormats.Expanded expand(List<Path> paths, PathMatcher nameFilter, TraceFormats.Keep keep) {
        return expand(TraceFormats.standard(), paths, nameFilter, keep, ReadOptions.DEFAULT.limits());
    }

    private static TraceFormats.Expanded expand(TraceFormats formats, List<Path> paths, PathMatcher nameFilter,
                                                TraceFormats.Keep keep, io.overlapanalyze.formats.input.InputLimits limits) {
        try {
            return formats.expand(paths, nameFilter, keep, limits);
        } catch (TraceFormatException e) {
            throw new PipelineInputException(e.getMessage(), e);
        }
    }

    /**
     * Reads and analyses expanded inputs (see {@link #run(PipelineInput, PrintWriter)}); ignores {@code in.paths()}.
     * The result keeps every rank's model (its {@code inputs} carry the full traces), for a command that
     * works on them (annotate, whatif); the cross-rank analysis reads digests all the same.
     */
    public static PipelineResult analyse(TraceFormats.Expanded expanded, PipelineInput in, PrintWriter progress) {
        return analyse(expanded, in, progress, full -> new Reduced<>(full.report(), null), true).result();
    }

    /**
     * The job path: every rank read (in parallel), analysed, digested for the cross-rank step, and
     * reduced to its report and what {@code keep} takes of it while its model is at hand (the
     * pictures); the model is then dropped, so memory follows the ranks read at once, not the job.
     * The cross-rank analysis runs on the digests ({@link #assemble}), as on Spark. The result's
     * {@code inputs} carry each rank's digest trace, not its model.
     *
     * @param reduce what the job holds of a rank (its report, or a stand-in where the caller put the full
     *               report elsewhere: see {@link Reduced}) and keeps besides, on its reader's thread
     */
    public static <T> Job<T> analyseJob(TraceFormats.Expanded expanded, PipelineInput in, PrintWriter progress,
                                        Function<RankInput, Reduced<T>> reduce) {
        return analyse(expanded, in, progress, reduce, false);
    }

    /**
     * What the job path holds of one rank once its model is dropped.
     *
     * @param held the report the job is assembled with: the rank's full report, or {@code null} where the
     *             caller keeps the full one elsewhere (a spill file, see {@link #reportElsewhere}) and
     *             revises it with the result's {@link PipelineResult#findings()} as it writes it
     * @param kept what the caller keeps besides (the pictures' timelines), or {@code null}
     */
    public record Reduced<T>(RankReport held, T kept) {
        /**
         * The caller keeps the rank's full report elsewhere: the job holds a {@link #standIn} for it, its
         * names shared with the job's other digests.
         */
        public static <T> Reduced<T> reportElsewhere(T kept) {
            return new Reduced<>(null, kept);
        }
    }

    /**
     * A job as the job path leaves it.
     *
     * @param result the report and the ranks' inputs (digests, or full models where kept)
     * @param kept   what the caller kept of each rank, in the order of {@code result.inputs()}
     */
    public record Job<T>(PipelineResult result, List<T> kept) {
        public Job {
            kept = java.util.Collections.unmodifiableList(new ArrayList<>(kept));
        }
    }

    /** One rank after reading: its cross-rank input (a digest), its model when kept, its medians, and what the caller kept. */
    private record ReadRank<T>(RankInput crossRank, RankTrace model, RankMedians medians, T kept) {
    }

    private static <T> Job<T> analyse(TraceFormats.Expanded expanded, PipelineInput in, PrintWriter progress,
                                      Function<RankInput, Reduced<T>> reduce, boolean keepModels) {
        StepSelection selection = in.steps();
        AnalysisOptions options = in.options();
        RankNaming naming;
        try {
            naming = new RankNaming(in.rankRegex());
        } catch (IllegalArgumentException e) {
            throw new PipelineInputException(e.getMessage(), e);
        }
        List<Path> files = expanded.files();
        Queue<String> stepNames = new ConcurrentLinkedQueue<>();
        SharedValues shared = new SharedValues();
        JobReader.Read<ReadRank<T>> loaded;
        try {
            loaded = in.formats().readInParallel(expanded, in.read(), naming, t -> {
                RankInput full = analyseRank(t, selection, options, stepNames);
                Reduced<T> reduced = reduce.apply(full);
                RankReport held = reduced.held() != null ? reduced.held() : standIn(full.report(), shared);
                // Every rank's medians from its full report, which the job may no longer hold.
                return new ReadRank<>(forCrossRank(new RankInput(full.trace(), held), shared),
                        keepModels ? full.trace() : null, RankMedians.of(full.report()), reduced.kept());
            }, progress);
        } catch (TraceFormatException e) {
            throw new PipelineInputException(e.getMessage(), e);
        }
        if (selection != null) {
            selection.requireAnyMatch(stepNames);
        }
        List<InputProblem> unreadable = new ArrayList<>();
        for (Path dir : expanded.unreadableDirectories()) {
            unreadable.add(unreadable(dir.toString(), Messages.quote(dir)
                    + ": cannot list this directory (permission denied): its traces are not read"));
        }
        for (JobReader.Unreadable u : loaded.unreadable()) {
            unreadable.add(unreadable(u.file().toString(), u.message()));
        }
        List<RankInput> digests = new ArrayList<>(loaded.results().size());
        List<T> kept = new ArrayList<>(loaded.results().size());
        Map<Integer, RankMedians> medians = new java.util.TreeMap<>();
        for (ReadRank<T> r : loaded.results()) {
            digests.add(r.crossRank());
            kept.add(r.kept());
            medians.putIfAbsent(r.crossRank().report().rank(), r.medians()); // as Findings.medians does
        }
        PipelineResult result = assemble(digests, unreadable, files.size(), in.crossRank(), expanded.skipped(),
                medians);
        if (keepModels) {
            List<RankInput> inputs = new ArrayList<>(result.inputs().size());
            for (int i = 0; i < result.inputs().size(); i++) {
                inputs.add(new RankInput(loaded.results().get(i).model(), result.inputs().get(i).report()));
            }
            result = new PipelineResult(result.report(), inputs, result.unreadable(), result.skipped(),
                    result.stepWaits(), result.findings());
        }
        return new Job<>(result, kept);
    }

    /**
     * A rank's input to the cross-rank analysis: its digest's trace ({@link CrossRankDigest}: what the
     * analysis reads of it, and all Spark sends) with the rank's own report, as a Spark driver holds it
     * for a rank whose report came inline; a Flight Recorder dump keeps its ring buffer and declared
     * groups, which the hang analysis reads. Its names and process groups are taken from {@code shared}.
     */
    public static RankInput forCrossRank(RankInput full, SharedValues shared) {
        RankTrace digest = CrossRankDigest.trace(full.trace(), shared);
        RankTrace t = full.trace();
        if (t.flightRecorder() != null) {
            digest = digest.withGroups(t.groups()).withFlightRecorder(t.flightRecorder());
        }
        return new RankInput(digest, full.report());
    }

    /**
     * A stand-in for a rank's full report that the job keeps elsewhere: what a digest's report keeps
     * ({@link CrossRankDigest#report}: all the cross-rank analysis reads) with the rank's warnings,
     * which standard error lists.
     */
    static RankReport standIn(RankReport full, SharedValues shared) {
        RankReport d = CrossRankDigest.report(full, shared);
        return new RankReport(d.rank(), d.rankSource(), d.source(), d.format(), d.worldSize(), d.steps(), d.totals(),
                d.notes(), full.warnings(), d.crossCheck(), d.parallelism(), d.contention(), d.notAvailable(),
                d.preCapture(), d.findings(), d.largestGroupSize(), d.deviceModel());
    }

    /**
     * One input of a job read and analysed again, each rank as {@link #analyseRank} gives it (with its
     * model): for the rare picture that needs a step whose unions the job path did not keep.
     */
    public static List<RankInput> readAgain(PipelineInput in, Path file) {
        try {
            return JobReader.readOne(in.formats(), file, file, in.read(),
                    new RankNaming(in.rankRegex()), t -> analyseRank(t, in.steps(), in.options(), new ArrayList<>()));
        } catch (TraceFormatException e) {
            throw new PipelineInputException(e.getMessage(), e);
        }
    }

    /** An input that could not be read, as the report lists it. */
    public static InputProblem unreadable(String file, String message) {
        return new InputProblem(file, null, InputProblem.UNREADABLE, message);
    }

    /**
     * The job's report from its ranks, each read and analysed alone: the ranks sorted by id, then
     * source, and, when {@code crossRank} is asked for and there are several inputs, the cross-rank
     * analysis over them (which reads only what a digest keeps, so {@code ranks} may hold digests).
     *
     * @param files how many inputs were read (a file may hold several ranks, an input none)
     */
    public static PipelineResult assemble(List<RankInput> ranksRead, List<InputProblem> unreadable, int files,
                                          boolean crossRank, List<String> skipped) {
        return assemble(ranksRead, unreadable, files, crossRank, skipped, null);
    }

    /**
     * As {@link #assemble(List, List, int, boolean, List)}, with every rank's medians computed where
     * its full report was ({@code null}: from the reports given, which are then full). The result's
     * reports, in {@code report} and in {@code inputs} (same input order as {@code ranksRead}), are
     * the ranks' revised by the cross-rank analysis (§12 rule 2: each step's transfer/waiting split
     * from the arrivals across ranks, where they cover it), with their findings; the report has the
     * job's. The inputs carry the same report objects as the job's report (the HTML timelines look a
     * rank's trace up by its report).
     */
    public static PipelineResult assemble(List<RankInput> ranksRead, List<InputProblem> unreadable, int files,
                                          boolean crossRank, List<String> skipped,
                                          Map<Integer, RankMedians> medians) {
        CrossRankAnalyzer.Result cross = crossRank && (files > 1 || ranksRead.size() > 1)
                ? CrossRankAnalyzer.analyzeWithWaits(ranksRead, unreadable) : null;
        CrossRankReport crossReport = cross == null ? null : cross.report();
        StepWaits waits = cross == null ? StepWaits.none() : cross.waits();
        List<RankReport> read = new ArrayList<>();
        for (RankInput input : ranksRead) {
            read.add(input.report());
        }
        UnaryOperator<RankReport> split = cross == null ? UnaryOperator.identity()
                : r -> CrossRankSplits.apply(r, waits.rank(r.rank()));
        Findings findings = Findings.of(crossReport, medians != null ? medians : Findings.medians(read), read.size(),
                split, exposedWaits(waits));
        Findings.Judged judged = findings.judge(read);
        List<RankInput> inputs = new ArrayList<>(ranksRead.size());
        for (int i = 0; i < ranksRead.size(); i++) {
            inputs.add(new RankInput(ranksRead.get(i).trace(), judged.ranks().get(i)));
        }
        List<RankReport> ranks = new ArrayList<>(judged.ranks());
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(r -> String.valueOf(r.source())));
        List<RankTrace> traces = new ArrayList<>(ranksRead.size());
        for (RankInput input : ranksRead) {
            traces.add(input.trace());
        }
        AnalysisReport report = new AnalysisReport(AnalysisReport.SCHEMA_VERSION, Version.tool(), ranks, crossReport,
                judged.findings(), HangAnalysis.analyze(traces));
        return new PipelineResult(report, inputs, unreadable, skipped, waits, findings);
    }

    /** Per rank, the median over its cross-rank-timed steps of their exposed waiting for peers. */
    private static Map<Integer, Long> exposedWaits(StepWaits waits) {
        Map<Integer, Long> out = new java.util.TreeMap<>();
        waits.ranks().forEach((rank, w) -> {
            if (!w.steps().isEmpty()) {
                out.put(rank, Findings.median(w.steps().stream().mapToLong(StepWaits.StepWait::exposedWaitNs)
                        .toArray()));
            }
        });
        return out;
    }

    /**
     * One rank read, analysed alone: its report, narrowed to {@code selection} when there is one
     * (then every step name seen goes to {@code stepNames}, so that a selection matching no rank's
     * steps can be refused). The whole per-rank part of the pipeline, also for a caller that reads
     * its ranks elsewhere (a Spark task).
     */
    public static RankInput analyseRank(RankTrace trace, StepSelection selection, AnalysisOptions options,
                                        Collection<String> stepNames) {
        RankReport r = RankAnalyzer.analyze(trace, options);
        if (selection != null) {
            r.steps().forEach(s -> stepNames.add(s.name()));
            r = RankAnalyzer.selectSteps(r, selection, options);
        }
        // The group sizes are in the whole trace only (metrics.md §12, last sentence).
        r = CommSplitAnalysis.withGroupNote(trace, r);
        return new RankInput(trace, r);
    }
}
