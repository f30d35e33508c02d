package io.overlapanalyze.cli;

import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.cli.compare.DiffRenderer;
import io.overlapanalyze.reportfile.RunLoader;
import io.overlapanalyze.cli.compare.ThresholdValues;
import io.overlapanalyze.compare.DiffReport;
import io.overlapanalyze.options.FormatOption;
import io.overlapanalyze.options.OutputOptions;
import io.overlapanalyze.options.TraceInputs;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.Version;
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
    TraceInputs inputs = new TraceInputs();

    @Parameters(index = "0", paramLabel = "A", description = "Run A: trace, directory or summary.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "Run B: trace, directory or summary.")
    Path b;

    @Option(names = "--alpha", paramLabel = "P", defaultValue = "0.05",
            description = "Significance level (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Mixin
    FormatOption format = new FormatOption();

    @Mixin
    OutputOptions out = new OutputOptions();

    @Override
    public Integer call() {
        ThresholdValues.checkAlpha(alpha);
        PipelineInput pipelineInput = inputs.pipeline(List.of());
        AnalysisOptions options = pipelineInput.options();
        Path output = out.file();
        RunLoader.Kinds kindsA = new RunLoader.Kinds(pipelineInput.formats());
        RunLoader.Kinds kindsB = new RunLoader.Kinds(pipelineInput.formats());
        TraceInputs.Expanded expandedA = inputs.expand(pipelineInput.withPaths(List.of(a)), kindsA);
        TraceInputs.Expanded expandedB = inputs.expand(pipelineInput.withPaths(List.of(b)), kindsB);
        List<Path> touched = new ArrayList<>(expandedA.touched());
        touched.addAll(expandedB.touched());
        SafeOutput.check(output, touched);
        RunLoader.Loaded sideA = RunLoader.load(a.toString(), expandedA.pipeline(), expandedA.files(), kindsA, false);
        RunLoader.Loaded sideB = RunLoader.load(b.toString(), expandedB.pipeline(), expandedB.files(), kindsB, false);
        RunLoader.Comparison how = RunLoader.comparison(options, "A", sideA, "B", sideB);
        DiffReport compared = DiffReport.compare(sideA.run(), sideB.run(), how.options(), alpha, Version.tool());
        List<String> warnings = new java.util.ArrayList<>(how.warnings());
        warnings.addAll(compared.warnings());
        DiffReport report = compared.withWarnings(RunLoader.withUnreadable(warnings, "A", sideA, "B", sideB));
        StderrWarnings.notes(spec.commandLine().getErr(), RunLoader.skipped(sideA, sideB));
        StderrWarnings.lines(spec.commandLine().getErr(), report.warnings());
        DiffRenderer.Format f = DiffRenderer.Format.valueOf(format.format().name());
        out.write(spec.commandLine().getOut(), touched, w -> DiffRenderer.render(report, f, w));
        return ExitCodes.OK;
    }
}
