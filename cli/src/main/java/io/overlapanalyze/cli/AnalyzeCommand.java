package io.overlapanalyze.cli;

import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.OutputFormat;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.options.DebugOption;
import io.overlapanalyze.options.ReportOutput;
import io.overlapanalyze.options.TraceInputs;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.render.html.HtmlRenderer;
import io.overlapanalyze.render.html.JobAnalysis;
import io.overlapanalyze.render.html.JobPictures;
import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.timeline.TerminalTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze [options] PATH...}: the main job. Reads the traces, analyses each rank
 * per step and prints the report.
 */
@Command(name = "overlap-analyze",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "Explains why a data-parallel training step is longer than it should be. Per rank and step: "
                        + "when the first gradient bucket was ready, when reduction started, when the last compute "
                        + "and the last reduction ended, the tail (communication left after the last gradient) "
                        + "and why, and how much communication was exposed.",
                "",
                "PATH is a trace file, a directory of them (searched recursively) or a quoted glob "
                        + "('traces/rank-*.json.gz'): PyTorch profiler JSON (.json or .json.gz, gzip detected by "
                        + "content), an Nsight Systems SQLite export (.sqlite), or an Ascend capture (a torch_npu "
                        + "*_ascend_pt directory, an msprof PROF_* tree, trace_view.json, or a DB export). Several "
                        + "ranks of one job are also analysed across ranks: collective order and size mismatches, "
                        + "clock offsets, stragglers, bandwidth; the report then opens with the job and details "
                        + "the ranks --detail names. Every number is defined in docs/numbers.md."},
        footer = {"", "Exit codes: 0 ok, 1 regression (gate), 2 bad usage or unreadable input, 3 internal error."})
public final class AnalyzeCommand implements Callable<Integer> {
    /**
     * Standard output as bytes, under the picocli writer, when the real process runs ({@link Main#main});
     * {@code null} in tests, which capture the writer.
     */
    private final java.io.OutputStream stdoutBytes;

    /** The environment the text report reads ({@code COLUMNS}, {@code NO_COLOR}, {@code TERM}). */
    private final Map<String, String> env;

    AnalyzeCommand() {
        this(null);
    }

    AnalyzeCommand(java.io.OutputStream stdoutBytes) {
        this(stdoutBytes, System.getenv());
    }

    AnalyzeCommand(java.io.OutputStream stdoutBytes, Map<String, String> env) {
        this.stdoutBytes = stdoutBytes;
        this.env = Map.copyOf(env);
    }


    @Spec
    CommandSpec spec;

    @Mixin
    TraceInputs inputs = new TraceInputs();

    @Parameters(paramLabel = "PATH", arity = "0..*", description = "Trace files or directories.")
    List<Path> paths = new ArrayList<>();

    @Mixin
    ReportOutput report = new ReportOutput();

    @Option(names = "--timeline", negatable = true,
            description = "Draw a character timeline per step in the text report (default: only when no rank has "
                    + "more than " + TerminalTimeline.AUTO_STEPS_PER_RANK + " steps); --no-timeline never.")
    Boolean timeline;

    /** Declared here once; every subcommand inherits it. */
    @Mixin
    DebugOption debug = new DebugOption();

    @Override
    public Integer call() {
        if (paths.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'PATH' (a trace file or directory)");
        }
        report.layout(); // a bad --detail is bad usage, said before any trace is read
        PipelineInput pipelineInput = inputs.pipeline(paths);
        Path output = report.output().file();
        Path html = report.htmlFile();
        java.util.Map<String, Path> outputs = new java.util.LinkedHashMap<>();
        outputs.put("--html", html);
        outputs.put(output != null ? "-o" : "the report (standard output)", output != null ? output : Path.of("-"));
        SafeOutput.requireDistinct(outputs);
        TraceInputs.Expanded expanded = inputs.expand(pipelineInput);
        expanded.check(html, output);
        // The job path: each rank's model is dropped once it is analysed, digested for the cross-rank
        // step and reduced to what the pictures asked for may draw; a big job spills the ranks'
        // reports until they are written (the HTML page too reads them back one at a time).
        int inputCount = expanded.files().files().size();
        JobPictures pictures = new JobPictures(html != null ? inputCount : 0,
                report.format() == OutputFormat.TEXT ? timeline : Boolean.FALSE);
        boolean spill = inputCount > JobAnalysis.SPILL_INPUTS;
        try (JobAnalysis job = JobAnalysis.run(pipelineInput, expanded.files(), pictures, spill,
                spec.commandLine().getErr())) {
            write(job, expanded, html, output);
        }
        return ExitCodes.OK;
    }

    private void write(JobAnalysis job, TraceInputs.Expanded expanded, Path html, Path output) {
        PipelineResult result = job.result();
        Analysed analysed = new Analysed(result.report(), job.pictures());
        AnalysisReport analysis = analysed.report();
        StderrWarnings.ofPipeline(spec.commandLine().getErr(), result);
        if (job.spills()) {
            StderrWarnings.notes(spec.commandLine().getErr(), List.of(job.spillNote()));
        }
        if (html != null) {
            SafeOutput.write(html, expanded.touched(),
                    w -> new HtmlRenderer(analysed.timelines(), report.layout()).render(job.page(), w));
        }

        // JSON always carries crossCheck; a spilled job's JSON streams the ranks' reports back; the
        // text and markdown layouts read a spilled job's ranks as summaries, and its detailed ranks back.
        ReportRenderer renderer;
        AnalysisReport rendered;
        if (job.spills() && report.format() == OutputFormat.JSON) {
            renderer = job.jsonRenderer();
            rendered = analysis;
        } else {
            JobRanks ranks = job.ranks();
            rendered = job.report();
            renderer = report.renderer(terminalTimeline(rendered, ranks, analysed.timelines()), ranks);
        }
        if (output != null) {
            SafeOutput.writeBytes(output, expanded.touched(), o -> renderer.render(rendered, o));
        } else {
            PrintWriter stdout = spec.commandLine().getOut();
            if (stdoutBytes != null) {
                stdout.flush();
                try {
                    renderer.render(rendered, stdoutBytes);
                } catch (java.io.IOException e) {
                    // The reader went away (`| head`): stop quietly, as the text writer (a
                    // PrintWriter, which never throws) does.
                }
            } else {
                try {
                    renderer.render(rendered, stdout);
                } catch (java.io.IOException e) {
                    throw new UserInputException("cannot write to standard output: " + e.getMessage(), e);
                }
            }
            stdout.flush();
        }
    }

    /**
     * The character timelines of the text report, when asked for or when every rank has few steps;
     * {@code null}: none.
     */
    private TerminalTimeline terminalTimeline(AnalysisReport analysis, JobRanks ranks, TimelineIndex timelines) {
        boolean draw = timeline != null ? timeline
                : TerminalTimeline.drawnByDefault(analysis, r -> ranks.summary(r).steps());
        if (!draw) {
            return null;
        }
        // Colours only on a terminal: never in a file (-o), a pipe, or with NO_COLOR set.
        boolean colour = TerminalTimeline.colourWanted(report.output().file() == null && System.console() != null, env);
        return new TerminalTimeline(timelines, TerminalTimeline.columnsFrom(env), colour);
    }

    /**
     * The report and the per-step device unions the pictures need (the report holds numbers
     * only; {@link TimelineIndex} keeps the intervals next to it).
     */
    private record Analysed(AnalysisReport report, TimelineIndex timelines) {
    }

}
