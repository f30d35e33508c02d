package io.overlapanalyze.cli;

import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.cli.whatif.ScenarioWhatIf;
import io.overlapanalyze.cli.whatif.WhatIfJsonRenderer;
import io.overlapanalyze.cli.whatif.WhatIfTextRenderer;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.options.FormatOption;
import io.overlapanalyze.options.OutputOptions;
import io.overlapanalyze.options.TraceInputs;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.pipeline.StepSelection;
import io.overlapanalyze.pipeline.Version;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.ModelScenario;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.whatif.WhatIf;
import io.overlapanalyze.whatif.WhatIfOptions;
import io.overlapanalyze.whatif.WhatIfReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze whatif TRACE | --scenario SCENARIO}: predicts step time, tail and exposed
 * communication for other bucket caps and a scaled interconnect, on the ideal two-engine timeline.
 */
@Command(name = "whatif", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = {"Predict the step and its tail for other bucket sizes or a faster interconnect.",
                "",
                "Replays each complete step on an ideal two-engine timeline (compute stays where it ran; gradient "
                        + "reductions run in issue order as soon as their data is ready and the communication engine "
                        + "is free), with a cost model time = alpha + bytes/beta fitted from the trace's own "
                        + "collectives, for the measured buckets and each bucket cap, and recommends a cap.",
                "Input: a PyTorch profiler trace (one rank), or --scenario with a scenario file or built-in name "
                        + "(see 'synth --list')."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."})
public final class WhatIfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TraceInputs inputs = new TraceInputs();

    @Parameters(paramLabel = "TRACE", arity = "0..1",
            description = "A trace file or a directory of them (one rank is replayed: --rank, else the lowest).")
    Path trace;

    @Option(names = "--scenario", paramLabel = "SCENARIO",
            description = "Replay a scenario instead of a trace: a scenario file (blocks or a model with layers) or "
                    + "a built-in name.")
    String scenario;

    /** The largest bucket cap, in MiB: 1 TiB, far above any model's gradients. */
    private static final BigDecimal MAX_CAP_MIB = BigDecimal.valueOf(1L << 20);
    /** The largest factor (and the inverse of the smallest) of the interconnect's speed. */
    private static final double MAX_SCALE = 1000;

    @Option(names = "--bucket-caps", paramLabel = "MB,...", split = ",", defaultValue = "1,5,10,25,50,100",
            description = "Bucket caps to try, in MiB as DDP's bucket_cap_mb (default: ${DEFAULT-VALUE}).")
    List<BigDecimal> caps;

    @Option(names = "--bandwidth-scale", paramLabel = "X", defaultValue = "1",
            description = "Also predict on an interconnect with X times the bandwidth (beta x X).")
    double bandwidthScale;

    @Option(names = "--latency-scale", paramLabel = "X", defaultValue = "1",
            description = "Also predict on an interconnect with X times the per-message latency (alpha x X).")
    double latencyScale;

    @Option(names = "--extrapolation-factor", paramLabel = "F", defaultValue = "2",
            description = "Warn when a bucket is more than F times outside the fitted sizes (default: ${DEFAULT-VALUE}).")
    double extrapolationFactor;

    @Option(names = "--rank", paramLabel = "N", description = "With a file holding several ranks: which one.")
    Integer rank;

    @Mixin
    FormatOption format = new FormatOption();

    @Mixin
    OutputOptions out = new OutputOptions();

    @Override
    public Integer call() {
        if ((trace == null) == (scenario == null)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "give either a TRACE file or --scenario SCENARIO (not both)");
        }
        boolean json = switch (format.format()) {
            case TEXT -> false;
            case JSON -> true;
            default -> throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--format: expected text or json, got '" + format.format().name().toLowerCase(java.util.Locale.ROOT)
                            + "'");
        };
        WhatIfOptions options = options();
        WhatIfReport report;
        PipelineInput pipelineInput = inputs.pipeline(trace == null ? List.of() : List.of(trace)).withCrossRank(false);
        Path output = out.file();
        TraceInputs.Expanded expanded = trace == null ? null : inputs.expand(pipelineInput);
        List<Path> touched = new ArrayList<>();
        if (expanded != null) {
            touched.addAll(expanded.touched());
        } else if (Files.exists(Path.of(scenario))) {
            touched.add(Path.of(scenario));
        }
        SafeOutput.check(output, touched);
        try {
            if (expanded != null) {
                AnalysisOptions analysis = pipelineInput.options();
                PipelineResult read = expanded.run(spec.commandLine().getErr());
                RankInput picked = pickRank(read.inputs());
                StderrWarnings.notes(spec.commandLine().getErr(), read.skipped());
                StderrWarnings.lines(spec.commandLine().getErr(), read.unreadableLines().stream()
                        .map(Messages::printable).toList());
                StderrWarnings.lines(spec.commandLine().getErr(), picked.report().namedWarnings());
                StepSelection steps = pipelineInput.steps();
                report = steps == null ? WhatIf.fromTrace(picked.trace(), analysis, options, Version.tool())
                        : WhatIf.fromTrace(picked.trace(), analysis, options, Version.tool(), steps);
            } else {
                report = fromScenario(options);
            }
        } catch (UserInputException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
        WhatIfReport finalReport = report;
        out.write(spec.commandLine().getOut(), touched, w -> render(finalReport, json, w));
        return ExitCodes.OK;
    }

    private static void render(WhatIfReport r, boolean json, Writer w) throws IOException {
        if (json) {
            WhatIfJsonRenderer.render(r, w);
        } else {
            WhatIfTextRenderer.render(r, w);
        }
    }

    private WhatIfOptions options() {
        List<Long> bytes = new ArrayList<>();
        for (BigDecimal mib : caps) {
            if (mib.signum() <= 0) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--bucket-caps: caps must be > 0 MiB, got " + mib.toPlainString());
            }
            if (mib.compareTo(MAX_CAP_MIB) > 0) {
                // Beyond it the bytes do not fit a long (1e30 was an ArithmeticException, exit 3).
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--bucket-caps: caps must be at most " + MAX_CAP_MIB.toPlainString() + " MiB (1 TiB), got "
                                + mib.toEngineeringString());
            }
            bytes.add(mib.multiply(BigDecimal.valueOf(ModelScenario.MIB)).setScale(0, java.math.RoundingMode.HALF_UP)
                    .longValueExact());
        }
        if (!(bandwidthScale > 0) || Double.isInfinite(bandwidthScale)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--bandwidth-scale: must be > 0, got " + bandwidthScale);
        }
        // A factor beyond 1000 either way predicts times no interconnect has, and the replay's
        // nanoseconds would leave a long (1e-12 wrapped around to negative times).
        if (bandwidthScale < 1 / MAX_SCALE || bandwidthScale > MAX_SCALE) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--bandwidth-scale: must be between 0.001 and 1000, got " + bandwidthScale);
        }
        if (!(latencyScale >= 0) || Double.isInfinite(latencyScale)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--latency-scale: must be >= 0, got " + latencyScale);
        }
        if (latencyScale > MAX_SCALE) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--latency-scale: must be at most 1000, got " + latencyScale);
        }
        if (!(extrapolationFactor >= 1) || Double.isInfinite(extrapolationFactor)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--extrapolation-factor: must be >= 1, got " + extrapolationFactor);
        }
        return new WhatIfOptions(bytes.stream().distinct().sorted().toList(), bandwidthScale, latencyScale,
                extrapolationFactor);
    }

    /** The rank asked for with {@code --rank}, else the lowest (the first read among equals). */
    private RankInput pickRank(List<RankInput> ranks) {
        if (rank != null) {
            return ranks.stream().filter(t -> t.trace().rank() == rank).findFirst()
                    .orElseThrow(() -> new UserInputException(trace + ": no rank " + rank + " in this "
                            + (Files.isDirectory(trace) ? "directory" : "file")));
        }
        return ranks.stream().min(Comparator.comparingInt(t -> t.trace().rank())).orElseThrow(
                () -> new UserInputException(trace + ": no rank in this file"));
    }

    private WhatIfReport fromScenario(WhatIfOptions options) {
        Path file = Path.of(scenario);
        if (Files.isRegularFile(file)) {
            if (ModelScenario.isModelScenario(file)) {
                return ScenarioWhatIf.fromModelScenario(ModelScenario.parse(file), scenario, options, Version.tool());
            }
            return ScenarioWhatIf.fromScenario(Scenario.parse(file), scenario, options, Version.tool());
        }
        if (BuiltinScenarios.names().contains(scenario)) {
            return ScenarioWhatIf.fromScenario(BuiltinScenarios.get(scenario), scenario, options, Version.tool());
        }
        throw new UserInputException(scenario + ": neither a scenario file nor a built-in scenario (built-ins: "
                + String.join(", ", BuiltinScenarios.names()) + ")");
    }
}
