package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.RankAnalyzer;
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
        subcommands = {SynthCommand.class, WhatIfCommand.class})
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

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    @Override
    public Integer call() {
        if (paths.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'PATH' (a trace file or directory)");
        }
        StepSelection selection = steps == null ? null : StepSelection.parse(steps);
        List<RankTrace> traces = TraceLoader.loadAll(paths);
        AnalysisOptions options = AnalysisOptions.defaults().withIncludePartial(includePartial);
        List<RankReport> ranks = new ArrayList<>();
        for (RankTrace trace : traces) {
            RankReport report = RankAnalyzer.analyze(trace, options);
            if (selection != null) {
                report = RankAnalyzer.selectSteps(report, selection, options);
            }
            ranks.add(report);
        }
        ranks.sort(Comparator.comparingInt(RankReport::rank).thenComparing(RankReport::source));
        AnalysisReport report = new AnalysisReport(AnalysisReport.SCHEMA_VERSION, Version.tool(), ranks);

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
