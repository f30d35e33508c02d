package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.cli.compare.DiffRenderer;
import io.overlapanalyze.cli.compare.RunLoader;
import io.overlapanalyze.cli.compare.ThresholdValues;
import io.overlapanalyze.compare.DiffReport;
import io.overlapanalyze.cli.pipeline.PipelineInput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code overlap-analyze diff A B}: what changed between two runs, and whether it is more than noise. */
@Command(name = "diff", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        versionProvider = VersionProvider.class,
        description = {"Compare two runs: per-metric medians, change and significance; bucket structure.",
                "",
                "Per metric: median A, median B, the change, and whether it is significant (Mann-Whitney U, "
                        + "when both runs have at least 5 complete steps × ranks; otherwise 'too few samples'). "
                        + "Then the gradient bucket layout of each run and what the change did to the tail's cause. "
                        + "A and B are each a trace file, a directory of traces, or a saved summary."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."})
public final class DiffCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    KernelPatternOptions kernelPatterns = new KernelPatternOptions();

    @Parameters(index = "0", paramLabel = "A", description = "Run A: trace, directory or summary.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "Run B: trace, directory or summary.")
    Path b;

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    DiffRenderer.Format format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path output;

    @Option(names = "--alpha", paramLabel = "P", defaultValue = "0.05",
            description = "Significance level (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--steps", paramLabel = "LIST", description = "Only these steps, on both sides (e.g. 4-10).")
    String steps;

    @Option(names = "--include-partial", description = "Count partial steps as samples.")
    boolean includePartial;

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    @Override
    public Integer call() {
        kernelPatterns.apply();
        ThresholdValues.checkAlpha(alpha);
        AnalysisOptions options = AnalysisOptions.defaults().withIncludePartial(includePartial);
        StepSelection selection = steps == null ? null : StepSelection.parse(steps);
        output = SafeOutput.fileOrNull(output);
        List<Path> inputs = TraceLoader.inputsOf(List.of(a, b));
        SafeOutput.check(output, inputs);
        PipelineInput in = PipelineInput.of(List.of()).withSteps(selection).withOptions(options);
        RunLoader.Loaded sideA = RunLoader.load(a.toString(), in.withPaths(List.of(a)), inputs);
        RunLoader.Loaded sideB = RunLoader.load(b.toString(), in.withPaths(List.of(b)), inputs);
        DiffReport report = DiffReport.compare(sideA.run(), sideB.run(), options, alpha, Version.tool());
        report = report.withWarnings(RunLoader.withUnreadable(report.warnings(), "A", sideA, "B", sideB));
        StderrWarnings.notes(spec.commandLine().getErr(), RunLoader.skipped(sideA, sideB));
        StderrWarnings.lines(spec.commandLine().getErr(), report.warnings());
        DiffReport finalReport = report;
        if (output != null) {
            SafeOutput.write(output, inputs, w -> DiffRenderer.render(finalReport, format, w));
        } else {
            PrintWriter out = spec.commandLine().getOut();
            try {
                DiffRenderer.render(report, format, out);
            } catch (IOException e) {
                throw new UserInputException("cannot write to standard output: " + e.getMessage(), e);
            }
        }
        return ExitCodes.OK;
    }
}
