package io.overlapanalyze.cli;

import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.OutputOptions;
import io.overlapanalyze.options.TraceInputs;
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
    TraceInputs inputs = new TraceInputs();

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Trace files or directories.")
    List<Path> paths = new ArrayList<>();

    @Mixin
    OutputOptions out = new OutputOptions();

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
        TraceInputs.Expanded expanded = inputs.expand(inputs.pipeline(paths).withCrossRank(false));
        expanded.check(out.file());
        PipelineResult result = expanded.run(spec.commandLine().getErr());
        AnalysisReport report = result.report();
        StderrWarnings.ofPipeline(spec.commandLine().getErr(), result);
        out.write(spec.commandLine().getOut(), expanded.touched(), w -> SummaryFile.write(report, w));
        history.append(report, env, spec.commandLine().getErr());
        return ExitCodes.OK;
    }
}
