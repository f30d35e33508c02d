package io.overlapanalyze.cli;

import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.cli.annotate.AnnotatedTrace;
import io.overlapanalyze.cli.annotate.ClockShift;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.options.TraceInputs;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.timeline.TimelineIndex;
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
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze annotate PATH... -o FILE}: the device and host timelines with the analysis
 * laid over them (markers, tail, exposed communication, attribution chain), as a Chrome-trace JSON
 * for Perfetto or chrome://tracing; a job on one clock ({@link ClockShift}).
 */
@Command(name = "annotate", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = {"Write the trace (device and host lanes) with the analysis laid over it, for Perfetto "
                + "(Open trace file) or chrome://tracing. See docs/annotate.md.",
                "",
                "Per rank: an \"overlap-analyze\" process with tracks steps, markers (instants at the exact marker "
                        + "times), tail, exposed comm and attribution chain, then the rank's device lanes, then its "
                        + "host lanes (the host threads' steps, ops and annotations, kernel launches and collective "
                        + "enqueues, as the reader kept them).",
                "",
                "A job (a directory or several files) is one trace with every rank on one clock: each rank's "
                        + "times have the clock offset the cross-rank analysis estimated subtracted (said on "
                        + "stderr and in the trace's metadata). When the clocks are too rough to align, or too "
                        + "few collectives were joined by every rank, each rank keeps its own clock, and stderr "
                        + "says so.",
                "",
                "Times are exact to the nanosecond (µs with three decimals); slices that would cross on a "
                        + "track move to an extra track \"… (2)\" (Perfetto drops crossing slices)."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."})
public final class AnnotateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TraceInputs inputs = new TraceInputs();

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Trace files or directories.")
    List<Path> paths = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true,
            description = "Chrome-trace JSON to write (never over an input).")
    Path output;

    @Option(names = "--host-lanes", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Keep each rank's host lanes beside the analysis (default); --no-host-lanes leaves them "
                    + "out for a smaller file.")
    boolean hostLanes = true;

    @Override
    public Integer call() {
        TraceInputs.Expanded expanded = inputs.expand(inputs.pipeline(paths));
        expanded.check(output);
        PipelineResult result = expanded.run(spec.commandLine().getErr());
        StderrWarnings.ofPipeline(spec.commandLine().getErr(), result);
        TimelineIndex timelines = TimelineIndex.of(result.inputs());
        ClockShift clocks = ClockShift.of(result.report());
        AnnotatedTrace.Layout layout = new AnnotatedTrace.Layout(hostLanes);
        SafeOutput.writeBytes(output, expanded.touched(), out -> AnnotatedTrace.write(result.report(), timelines, clocks, layout,
                out));
        PrintWriter err = spec.commandLine().getErr();
        if (clocks.summary() != null) {
            err.println(clocks.summary());
        }
        err.println("wrote " + Messages.quote(output) + " (open it in Perfetto or chrome://tracing)");
        err.flush();
        return ExitCodes.OK;
    }
}
