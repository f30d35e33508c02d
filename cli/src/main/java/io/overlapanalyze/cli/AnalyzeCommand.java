package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.RankAnalyzer;
import io.overlapanalyze.crossrank.CrossRankAnalyzer;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.RankReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
                "Explains why a data-parallel training step is longer than it should be: per rank and step,",
                "when the first gradient bucket was ready, when reduction started, when the last compute and",
                "the last reduction ended, the tail (communication left after the last gradient) and why,",
                "and how much communication was exposed.",
                "",
                "PATH is a PyTorch profiler trace (.json or .json.gz), a directory of them (searched recursively),",
                "or a quoted glob ('traces/rank-*.json.gz'). Several ranks of one job are also analysed across ranks:",
                "collective order/size mismatches, clock offsets, stragglers, bandwidth.",
                "Metric definitions: docs/metrics in the project README."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."},
        subcommands = {SynthCommand.class})
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

    @Option(names = "--rank-regex", paramLabel = "REGEX",
            description = "Rank from the file path when the trace does not say: the first capture group, "
                    + "e.g. 'worker(\\d+)'. Replaces the built-in names (rank-3, rank3_, ..._3.pt.trace.json).")
    String rankRegex;

    @Option(names = "--include", paramLabel = "GLOB",
            description = "In directories, only files whose name matches GLOB (default: *.json and *.json.gz).")
    String include;

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    @Override
    public Integer call() {
        if (paths.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'PATH' (a trace file or directory)");
        }
        StepSelection selection = steps == null ? null : StepSelection.parse(steps);
        AnalysisOptions options = AnalysisOptions.defaults().withIncludePartial(includePartial);
        RankNaming naming = new RankNaming(rankRegex);
        // Files are read and analysed in parallel; a bad file in a multi-file run is reported, not fatal.
        List<Path> files = JobLoader.expand(paths, nameFilter());
        JobLoader.Loaded loaded = JobLoader.load(files, naming, options,
                r -> selection == null ? r : RankAnalyzer.selectSteps(r, selection, options),
                spec.commandLine().getErr());
        for (var problem : loaded.problems()) {
            spec.commandLine().getErr().println("overlap-analyze: warning: " + problem.message()
                    + " (skipped; the other inputs are analysed)");
        }
        spec.commandLine().getErr().flush();
        List<RankReport> ranks = new ArrayList<>();
        for (RankInput in : loaded.inputs()) {
            ranks.add(in.report());
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(RankReport::source));
        CrossRankReport crossRank = files.size() > 1 || loaded.inputs().size() > 1
                ? CrossRankAnalyzer.analyze(loaded.inputs(), loaded.problems()) : null;
        AnalysisReport report = new AnalysisReport(AnalysisReport.SCHEMA_VERSION, Version.tool(), ranks, crossRank);

        var renderer = format.renderer();
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

    private List<Path> inputsOf() {
        List<Path> all = new ArrayList<>();
        for (Path p : paths) {
            all.addAll(TraceLoader.expand(p, nameFilter()));
        }
        return all;
    }

    private PathMatcher nameFilter() {
        if (include == null) {
            return null;
        }
        try {
            return FileSystems.getDefault().getPathMatcher("glob:" + include);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--include: not a valid glob: " + include);
        }
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
