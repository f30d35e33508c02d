package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.cli.pipeline.AnalysisPipeline;
import io.overlapanalyze.cli.pipeline.PipelineInput;
import io.overlapanalyze.cli.pipeline.PipelineResult;
import io.overlapanalyze.cli.compare.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
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

/**
 * {@code overlap-analyze summary PATH... -o run.json}: the analysis as a saved summary, small
 * enough to commit, that diff and gate accept in place of the traces.
 */
@Command(name = "summary", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        versionProvider = VersionProvider.class,
        description = {"Save the analysis as a summary that diff and gate accept in place of the traces.",
                "",
                "A summary is the '--format json' report with \"kind\": \"overlap-analyze summary\": small enough "
                        + "to keep a baseline in a repository. Its schemaVersion tells later versions how to read it."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."})
public final class SummaryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    KernelPatternOptions kernelPatterns = new KernelPatternOptions();

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Trace files or directories.")
    List<Path> paths = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the summary to FILE (never over an input); default: standard output.")
    Path output;

    @Option(names = "--steps", paramLabel = "LIST",
            description = "Keep only these steps (e.g. 4-10 to drop warm-up steps).")
    String steps;

    @Option(names = "--include-partial", description = "Count partial steps in the summary's totals.")
    boolean includePartial;

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    @Override
    public Integer call() {
        kernelPatterns.apply();
        AnalysisOptions options = AnalysisOptions.defaults().withIncludePartial(includePartial);
        StepSelection selection = steps == null ? null : StepSelection.parse(steps);
        output = SafeOutput.fileOrNull(output);
        List<Path> inputs = TraceLoader.inputsOf(paths);
        SafeOutput.check(output, inputs);
        PipelineResult result = AnalysisPipeline.run(PipelineInput.of(paths).withSteps(selection).withOptions(options)
                .withCrossRank(false), spec.commandLine().getErr());
        AnalysisReport report = result.report();
        StderrWarnings.ofPipeline(spec.commandLine().getErr(), result);
        if (output != null) {
            SafeOutput.write(output, inputs, w -> SummaryFile.write(report, w));
        } else {
            PrintWriter out = spec.commandLine().getOut();
            try {
                SummaryFile.write(report, out);
            } catch (IOException e) {
                throw new UserInputException("cannot write to standard output: " + e.getMessage(), e);
            }
        }
        return ExitCodes.OK;
    }
}
