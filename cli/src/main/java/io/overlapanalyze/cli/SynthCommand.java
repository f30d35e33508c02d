package io.overlapanalyze.cli;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.Temporaries;
import io.overlapanalyze.formats.sqlite.NativeLibraryHome;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.synth.SynthInputException;
import io.overlapanalyze.synth.SynthOutput;
import io.overlapanalyze.synth.SynthRequest;
import io.overlapanalyze.synth.SynthWriteException;
import io.overlapanalyze.synth.SynthWriters;
import io.overlapanalyze.synth.Written;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze synth SCENARIO -o FILE}: writes a realistic PyTorch-profiler trace of a
 * scenario (a built-in name or a scenario JSON file), with known ground truth. The options become a
 * {@link SynthRequest}; the generator's registry ({@link SynthWriters}) chooses the writer.
 */
@Command(name = "synth", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = {"Write a synthetic profiler trace of a scenario.",
                "",
                "A scenario is compute blocks and gradient buckets with their bytes and communication times; the "
                        + "trace has known ground truth. SCENARIO is a built-in name (see --list) or a scenario JSON "
                        + "file (see samples/*.scenario.json). A job file (with \"ranks\", see samples/*.job.json) "
                        + "or --ranks N writes one trace per rank into a directory (rank-<r>.pt.trace.json), with "
                        + "clock offsets, a slow rank or mismatches as the job says."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."})
public final class SynthCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SCENARIO", arity = "0..1", description = "Built-in scenario name or scenario file.")
    String scenario;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = {"Trace file to write (.json, or .json.gz for gzip; .sqlite for an Nsight Systems export).",
                    "Default: <scenario>.pt.trace.json"})
    Path output;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "kineto (a PyTorch profiler trace file), nsys (an Nsight Systems SQLite export) or ascend "
                    + "(a torch_npu <name>_ascend_pt directory with ASCEND_PROFILER_OUTPUT/trace_view.json); for "
                    + "ascend-mc2 also ascend-db (the DB export). "
                    + "Default: nsys when the output ends in .sqlite, else kineto.")
    String traceFormat;

    @Option(names = "--ranks", paramLabel = "N",
            description = "Write a healthy job of N ranks running SCENARIO into the directory -o (default: <scenario>/).")
    Integer ranks;

    @Option(names = "--gzip", description = "For jobs: write rank-<r>.pt.trace.json.gz.")
    boolean gzip;

    @Option(names = "--devices", paramLabel = "N",
            description = {"Kineto only: 2 writes one process driving two GPUs (the scenario's device and the next),",
                    "the second running the same work --second-device-lag-us later. Default 1."})
    Integer devices;

    @Option(names = "--second-device-lag-us", paramLabel = "US",
            description = "With --devices 2: how much later the second device runs the work (default 0).")
    long secondDeviceLagUs;

    @Option(names = "--accelerator", paramLabel = "KIND",
            description = "Kineto only: cuda (default) or mtia (mtia_ccp_events device events, mtia_runtime launches, "
                    + "one dma_request per step and an event_record per bucket).")
    String accelerator;

    @Option(names = "--device-lag-us", paramLabel = "US",
            description = "Kineto: the device runs this far behind the host (every device event that much later).")
    String deviceLagUs;

    @Option(names = "--host-time-sync",
            description = "Kineto: write cuda_sync rows at their host call's time, as CUPTI does (turns the "
                    + "scenario's syncEvents on).")
    boolean hostTimeSync;

    @Option(names = "--capture-starts-mid-step",
            description = "Kineto: the capture begins at the second step's host start; the first step's work still "
                    + "running then is in the file without its launches (work launched before the capture).")
    boolean startsMidStep;

    @Option(names = "--pipeline-us", paramLabel = "US",
            description = "Kineto: each step but the last ends with a next-batch copy of US on its own stream, "
                    + "running into the next step (pipelined steps: windows overlap).")
    String pipelineUs;

    @Option(names = "--list", description = "List the built-in scenarios.")
    boolean list;


    @Override
    public Integer call() {
        if (list) {
            for (String line : SynthWriters.standard().builtins()) {
                spec.commandLine().getOut().println(line);
            }
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
        if (scenario == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'SCENARIO' (a built-in name or a scenario file; --list shows names)");
        }
        SynthRequest request = new SynthRequest(scenario, output, traceFormat, ranks, gzip, devices, secondDeviceLagUs,
                accelerator, deviceLagUs, hostTimeSync, startsMidStep, pipelineUs);
        Written written;
        try {
            written = SynthWriters.standard().write(request, new SafeSynthOutput());
        } catch (SynthInputException e) {
            throw new UserInputException(e.getMessage(), e);
        } catch (SynthWriteException e) {
            throw new UserInputException(e.where() + ": cannot write: " + Messages.oneLine(e.getCause()), e);
        } catch (IOException e) {
            throw new UserInputException(scenario + ": cannot write: " + Messages.oneLine(e), e);
        }
        spec.commandLine().getErr().println(written.rankFiles() > 0
                ? "wrote " + written.rankFiles() + " rank traces to " + Messages.quote(written.where())
                : "wrote " + Messages.quote(written.where()));
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    /**
     * The generator's files through {@link SafeOutput}: never over an input, renamed in whole. SQLite
     * needs a file: it is written beside the target, then copied through SafeOutput's checks.
     */
    private static final class SafeSynthOutput implements SynthOutput {
        @Override
        public void stream(Path target, List<Path> inputs, StreamBody body) {
            SafeOutput.writeBytes(target, inputs, body::write);
        }

        @Override
        public void file(Path target, List<Path> inputs, FileBody body) throws IOException {
            Path dir = target.toAbsolutePath().getParent();
            Path scratch = Temporaries.create(() -> Files.createTempFile(dir, "." + target.getFileName(), ".sqlite.tmp"));
            try {
                body.write(scratch);
                SafeOutput.writeBytes(target, inputs, out -> Files.copy(scratch, out));
            } finally {
                Temporaries.delete(scratch); // best effort; else at exit
            }
        }

        @Override
        public void beforeSqlite() {
            NativeLibraryHome.ensure();
        }
    }
}
