package io.overlapanalyze.cli;

import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.options.DebugOption;
import io.overlapanalyze.options.InputOptions;
import io.overlapanalyze.options.KernelPatternOptions;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.reportfile.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

    @Mixin
    OutputOptions out = new OutputOptions();

    @Mixin
    InputOptions in = new InputOptions();

    @Mixin
    DebugOption debug = new DebugOption();

    @Mixin
    HistoryAppendOptions history = new HistoryAppendOptions();

    /** The environment: the CI's commit and branch variables, recorded with a run appended to a history. */
    private final java.util.Map<String, String> env;

    public SummaryCommand() {
        this(System.getenv());
    }

    SummaryCommand(java.util.Map<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        history.check();
        KernelRules kernelRules = kernelPatterns.rules(); // checked first, as before anything else
        PipelineInput pipelineInput = in.pipeline(paths, kernelRules).withCrossRank(false);
        Path output = out.file();
        List<Path> inputs = in.inputsOf(paths);
        SafeOutput.check(output, inputs);
        PipelineResult result = AnalysisPipeline.run(pipelineInput, spec.commandLine().getErr());
        AnalysisReport report = result.report();
        StderrWarnings.ofPipeline(spec.commandLine().getErr(), result);
        out.write(spec.commandLine().getOut(), inputs, w -> SummaryFile.write(report, w));
        history.append(report, env, spec.commandLine().getErr());
        return ExitCodes.OK;
    }
}
