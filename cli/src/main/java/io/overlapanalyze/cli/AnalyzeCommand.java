package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.RankAnalyzer;
import io.overlapanalyze.cli.render.ReportRenderer;
import io.overlapanalyze.cli.render.TextRenderer;
import io.overlapanalyze.cli.render.html.HtmlRenderer;
import io.overlapanalyze.cli.render.timeline.TerminalTimeline;
import io.overlapanalyze.cli.render.timeline.TimelineIndex;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze [options] PATH...}: the main job. Reads the traces, analyses each rank
 * per step and prints the report.
 */
@Command(name = "overlap-analyze",
        mixinStandardHelpOptions = true,
        versionProvider = AnalyzeCommand.VersionProvider.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "Explains why a data-parallel training step is longer than it should be. Per rank and step: "
                        + "when the first gradient bucket was ready, when reduction started, when the last compute "
                        + "and the last reduction ended, the tail (communication left after the last gradient) "
                        + "and why, and how much communication was exposed.",
                "",
                "PATH is a PyTorch profiler trace (.json or .json.gz, gzip detected by content) or a directory "
                        + "of them. Every number is defined in the README (\"What the numbers mean\")."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."},
        subcommands = {SynthCommand.class, AnnotateCommand.class})
public final class AnalyzeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "PATH", arity = "0..*", description = "Trace files or directories.")
    List<Path> paths = new ArrayList<>();

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    OutputFormat format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the report to FILE instead of standard output (never over an input).")
    Path output;

    @Option(names = "--steps", paramLabel = "LIST",
            description = "Only these steps: numbers, ranges or names, e.g. 4,5 or 4-6 or ProfilerStep#5.")
    String steps;

    @Option(names = "--include-partial",
            description = "Count partial steps (cut by the capture, or missing device work) in totals and medians.")
    boolean includePartial;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write a self-contained HTML report with timelines to FILE (opens offline).")
    Path html;

    @Option(names = "--timeline", negatable = true,
            description = "Draw a character timeline per step in the text report (default: only with at most "
                    + TIMELINE_AUTO_STEPS + " steps); --no-timeline never.")
    Boolean timeline;

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    /** With no {@code --timeline} option, the text report draws timelines up to this many steps. */
    static final int TIMELINE_AUTO_STEPS = 10;

    @Override
    public Integer call() {
        if (paths.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'PATH' (a trace file or directory)");
        }
        Analysed analysed = analyse(paths, steps, includePartial);
        AnalysisReport report = analysed.report();
        if (html != null) {
            SafeOutput.write(html, inputsOf(), w -> new HtmlRenderer(analysed.timelines()).render(report, w));
        }

        var renderer = format == OutputFormat.TEXT ? textRenderer(analysed) : format.renderer();
        if (output != null) {
            SafeOutput.write(output, inputsOf(), w -> renderer.render(report, w));
        } else {
            PrintWriter out = spec.commandLine().getOut();
            try {
                renderer.render(report, out);
            } catch (java.io.IOException e) {
                throw new UserInputException("cannot write to standard output: " + e.getMessage(), e);
            }
            out.flush();
        }
        return ExitCodes.OK;
    }

    /** The text report, with character timelines when asked for or when there are few steps. */
    private ReportRenderer textRenderer(Analysed analysed) {
        int steps = analysed.report().ranks().stream().mapToInt(r -> r.steps().size()).sum();
        boolean draw = timeline != null ? timeline : steps <= TIMELINE_AUTO_STEPS;
        if (!draw) {
            return new TextRenderer();
        }
        Map<String, String> env = System.getenv();
        // Colours only on a terminal: never in a file (-o), a pipe, or with NO_COLOR set.
        boolean colour = TerminalTimeline.colourWanted(output == null && System.console() != null, env);
        return new TextRenderer(new TerminalTimeline(analysed.timelines(), TerminalTimeline.columnsFrom(env), colour));
    }

    /**
     * The traces read and analysed, the report, and the per-step device unions the pictures need
     * (the report holds numbers only; {@link TimelineIndex} keeps the intervals next to it).
     */
    record Analysed(AnalysisReport report, TimelineIndex timelines) {
    }

    /** Reads, analyses and (with {@code --steps}) selects; ranks sorted by id then source. */
    static Analysed analyse(List<Path> paths, String steps, boolean includePartial) {
        StepSelection selection = steps == null ? null : StepSelection.parse(steps);
        List<RankTrace> traces = TraceLoader.loadAll(paths);
        AnalysisOptions options = AnalysisOptions.defaults().withIncludePartial(includePartial);
        List<RankReport> ranks = new ArrayList<>();
        TimelineIndex timelines = new TimelineIndex();
        for (RankTrace trace : traces) {
            RankReport report = RankAnalyzer.analyze(trace, options);
            if (selection != null) {
                report = RankAnalyzer.selectSteps(report, selection, options);
            }
            ranks.add(report);
            timelines.add(trace, report);
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(RankReport::source));
        return new Analysed(new AnalysisReport(AnalysisReport.SCHEMA_VERSION, Version.tool(), ranks), timelines);
    }

    private List<Path> inputsOf() {
        List<Path> all = new ArrayList<>();
        for (Path p : paths) {
            all.addAll(TraceLoader.expand(p));
        }
        return all;
    }

    /** Supplies {@code --version}. */
    public static final class VersionProvider implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {Version.tool(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }
}
