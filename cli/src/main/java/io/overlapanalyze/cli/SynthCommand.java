package io.overlapanalyze.cli;

import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.input.Temporaries;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.synth.AscendMc2Writer;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.CaptureEffects;
import io.overlapanalyze.synth.DeviceLayoutWriter;
import io.overlapanalyze.synth.Durations;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.ParallelScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;

/**
 * {@code overlap-analyze synth SCENARIO -o FILE}: writes a realistic PyTorch-profiler trace of a
 * scenario (a built-in name or a scenario JSON file), with known ground truth.
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
            for (String name : BuiltinScenarios.names()) {
                spec.commandLine().getOut().println(name + "  " + BuiltinScenarios.get(name).description());
            }
            for (String name : ParallelScenarioWriter.builtinNames()) {
                spec.commandLine().getOut().println(name + "  " + ParallelScenarioWriter.description(name));
            }
            spec.commandLine().getOut().println(AscendMc2Writer.NAME + "  " + AscendMc2Writer.DESCRIPTION);
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
        if (scenario == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'SCENARIO' (a built-in name or a scenario file; --list shows names)");
        }
        if (scenario.equals(AscendMc2Writer.NAME)) {
            return writeAscendMc2();
        }
        boolean otherLayout = (devices != null && devices != 1) || accelerator != null || secondDeviceLagUs != 0;
        if (otherLayout && (isParallel(scenario) || ranks != null
                || (Files.isRegularFile(Path.of(scenario)) && Job.isJobFile(Path.of(scenario))))) {
            throw new UserInputException("--devices, --second-device-lag-us and --accelerator apply to a single-rank DDP scenario"
                    + " only (not to jobs or FSDP, pipeline and contention scenarios)");
        }
        if (isParallel(scenario)) {
            requireNoEffects("FSDP, pipeline and contention scenarios");
            return writeParallel();
        }
        Path asFile = Path.of(scenario);
        if (ranks != null || (Files.isRegularFile(asFile) && Job.isJobFile(asFile))) {
            requireNoEffects("jobs");
            return writeJob(asFile);
        }
        Scenario s = resolve(scenario);
        String format = targetFormat();
        if (!format.equals("kineto")) {
            requireNoEffects(format + " output");
        }
        DeviceLayoutWriter.Layout layout = layout(format);
        if (layout != null) {
            requireNoEffects("--devices 2 or --accelerator mtia layouts");
            Path target = output != null ? output : Path.of(s.name() + ".pt.trace.json");
            List<Path> inputs = Files.exists(Path.of(scenario)) ? List.of(Path.of(scenario)) : List.of();
            long lagNs = Math.multiplyExact(secondDeviceLagUs, 1000L);
            writeTraceFile(target, inputs, (sink, traceName) -> DeviceLayoutWriter.write(s, layout, lagNs, sink, traceName));
            spec.commandLine().getErr().println("wrote " + target);
            spec.commandLine().getErr().flush();
            return ExitCodes.OK;
        }
        if (format.equals("ascend")) {
            return writeAscend(s);
        }
        boolean nsys = format.equals("nsys");
        Path target = output != null ? output : Path.of(s.name() + (nsys ? ".sqlite" : ".pt.trace.json"));
        List<Path> inputs = Files.exists(Path.of(scenario)) ? List.of(Path.of(scenario)) : List.of();
        if (nsys) {
            writeNsysSafely(s, target, inputs);
        } else {
            writeSafely(s, target, inputs);
        }
        spec.commandLine().getErr().println("wrote " + Messages.quote(target));
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    /** The built-in Ascend MC² job: the text export (default) or, with --format ascend-db, the DB export. */
    private Integer writeAscendMc2() {
        requireNoEffects("the Ascend MC2 scenario");
        String f = traceFormat == null ? "ascend" : traceFormat.toLowerCase(java.util.Locale.ROOT);
        if (!f.equals("ascend") && !f.equals("ascend-db") || ranks != null || devices != null || accelerator != null) {
            throw new UserInputException(AscendMc2Writer.NAME + ": written as a torch_npu capture only (--format ascend"
                    + " for the text export, ascend-db for the DB export), one rank");
        }
        Path dir = output != null ? output : Path.of(AscendMc2Writer.directoryName());
        if (Files.exists(dir)) {
            throw new UserInputException(dir + ": already exists; choose a new directory for the Ascend capture");
        }
        try {
            if (f.equals("ascend-db")) {
                AscendMc2Writer.writeDb(dir);
            } else {
                AscendMc2Writer.writeText(dir);
            }
        } catch (java.io.IOException e) {
            throw new UserInputException(dir + ": cannot write: " + Messages.oneLine(e), e);
        }
        spec.commandLine().getErr().println("wrote " + Messages.quote(dir));
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    /** A torch_npu capture directory; never written into an existing path. */
    private Integer writeAscend(Scenario s) {
        Path dir = output != null ? output : Path.of(AscendScenarioWriter.directoryName(s));
        if (Files.exists(dir)) {
            throw new UserInputException(dir + ": already exists; choose a new directory for the Ascend capture");
        }
        try {
            AscendScenarioWriter.write(s, dir);
        } catch (java.io.IOException e) {
            throw new UserInputException(dir + ": cannot write: " + Messages.oneLine(e), e);
        }
        spec.commandLine().getErr().println("wrote " + Messages.quote(dir));
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    private Integer writeJob(Path asFile) {
        Job job;
        try {
            if (ranks != null) {
                if (Files.isRegularFile(asFile) && Job.isJobFile(asFile)) {
                    throw new UserInputException("--ranks: " + scenario + " is already a job file (it says its ranks)");
                }
                Scenario s = resolve(scenario);
                job = Job.healthy(s.name() + "-" + ranks + "rank", ranks, s);
            } else {
                job = Job.parse(asFile);
            }
        } catch (UserInputException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
        Path dir = output != null ? output : Path.of(job.name());
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UserInputException(dir + ": exists and is not a directory (a job is written as one file per rank)");
        }
        try {
            List<Path> files = JobWriter.write(job, dir, gzip);
            spec.commandLine().getErr().println("wrote " + files.size() + " rank traces to " + Messages.quote(dir));
        } catch (java.io.IOException e) {
            throw new UserInputException(dir + ": cannot write: " + e.getMessage(), e);
        }
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    /** An FSDP / pipeline / contention scenario: a built-in of those, or a file with "kind". */
    private static boolean isParallel(String nameOrFile) {
        Path file = Path.of(nameOrFile);
        if (Files.isRegularFile(file)) {
            return ParallelScenarioWriter.isParallelScenario(file);
        }
        return ParallelScenarioWriter.builtinNames().contains(nameOrFile);
    }

    /** Parallelism scenarios are written as Kineto traces only. */
    private Integer writeParallel() {
        if (targetFormat().equals("nsys") && writesNsys()) {
            return writeParallelNsys();
        }
        if (!targetFormat().equals("kineto")) {
            throw new UserInputException(scenario + ": FSDP, pipeline and contention scenarios are written as Kineto "
                    + "traces only (--format kineto, a .json or .json.gz output); MoE ones also as nsys");
        }
        String name;
        try {
            name = ParallelScenarioWriter.name(scenario);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
        Path target = output != null ? output : Path.of(name + ".pt.trace.json");
        List<Path> inputs = Files.exists(Path.of(scenario)) ? List.of(Path.of(scenario)) : List.of();
        writeTraceFile(target, inputs, (sink, traceName) -> ParallelScenarioWriter.write(scenario, sink, traceName));
        spec.commandLine().getErr().println("wrote " + Messages.quote(target));
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    private boolean writesNsys() {
        try {
            return ParallelScenarioWriter.writesNsys(scenario);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
    }

    /** A MoE scenario as an Nsight Systems export, written beside the target and moved through SafeOutput. */
    private Integer writeParallelNsys() {
        Path target = output != null ? output : Path.of(ParallelScenarioWriter.name(scenario) + ".sqlite");
        List<Path> inputs = Files.exists(Path.of(scenario)) ? List.of(Path.of(scenario)) : List.of();
        Path dir = target.toAbsolutePath().getParent();
        Path scratch = null;
        try {
            scratch = Temporaries.create(() -> Files.createTempFile(dir, "." + target.getFileName(), ".sqlite.tmp"));
            ParallelScenarioWriter.writeNsys(scenario, scratch);
            Path from = scratch;
            SafeOutput.writeBytes(target, inputs, out -> Files.copy(from, out));
        } catch (java.io.IOException e) {
            throw new UserInputException(target + ": cannot write: " + Messages.oneLine(e), e);
        } finally {
            if (scratch != null) {
                Temporaries.delete(scratch); // best effort; else at exit
            }
        }
        spec.commandLine().getErr().println("wrote " + Messages.quote(target));
        spec.commandLine().getErr().flush();
        return ExitCodes.OK;
    }

    private static Scenario resolve(String nameOrFile) {
        Path file = Path.of(nameOrFile);
        if (Files.isRegularFile(file)) {
            try {
                return Scenario.parse(file);
            } catch (IllegalArgumentException e) {
                throw new UserInputException(e.getMessage(), e);
            }
        }
        if (BuiltinScenarios.names().contains(nameOrFile)) {
            return BuiltinScenarios.get(nameOrFile);
        }
        List<String> all = new java.util.ArrayList<>(BuiltinScenarios.names());
        all.addAll(ParallelScenarioWriter.builtinNames());
        throw new UserInputException(nameOrFile + ": neither a scenario file nor a built-in scenario (built-ins: "
                + String.join(", ", all) + ")");
    }

    /** The device layout --devices / --accelerator ask for, or {@code null} for the usual one GPU. */
    private DeviceLayoutWriter.Layout layout(String format) {
        boolean two = devices != null && devices != 1;
        boolean mtia = accelerator != null && !accelerator.equalsIgnoreCase("cuda");
        if (devices != null && devices != 1 && devices != 2) {
            throw new UserInputException("--devices: 1 or 2, got " + devices);
        }
        if (mtia && !accelerator.equalsIgnoreCase("mtia")) {
            throw new UserInputException("--accelerator: expected cuda or mtia, got '" + accelerator + "'");
        }
        if (secondDeviceLagUs < 0 || (secondDeviceLagUs != 0 && !two)) {
            throw new UserInputException("--second-device-lag-us: a lag of 0 or more, with --devices 2");
        }
        if (!two && !mtia) {
            return null;
        }
        if (two && mtia) {
            throw new UserInputException("--devices 2 and --accelerator mtia: choose one");
        }
        if (!format.equals("kineto")) {
            throw new UserInputException((two ? "--devices" : "--accelerator") + ": Kineto traces only (a .json or"
                    + " .json.gz output)");
        }
        return two ? DeviceLayoutWriter.Layout.TWO_DEVICES : DeviceLayoutWriter.Layout.MTIA;
    }

    /** kineto, nsys or ascend: the --format option, else from the output name. */
    private String targetFormat() {
        if (traceFormat == null) {
            return output != null && output.getFileName().toString().endsWith(".sqlite") ? "nsys" : "kineto";
        }
        String f = traceFormat.toLowerCase(java.util.Locale.ROOT);
        if (!f.equals("kineto") && !f.equals("nsys") && !f.equals("ascend")) {
            throw new UserInputException("--format: expected kineto, nsys or ascend, got '" + traceFormat + "'");
        }
        return f;
    }

    /** SQLite needs a file: write it beside the target, then copy it through SafeOutput's checks and rename. */
    private static void writeNsysSafely(Scenario s, Path target, List<Path> inputs) {
        Path dir = target.toAbsolutePath().getParent();
        Path scratch;
        try {
            scratch = Temporaries.create(() -> Files.createTempFile(dir, "." + target.getFileName(), ".sqlite.tmp"));
        } catch (java.io.IOException e) {
            throw new UserInputException(target + ": cannot write: " + Messages.oneLine(e), e);
        }
        try {
            NsysScenarioWriter.write(s, scratch);
            SafeOutput.writeBytes(target, inputs, out -> Files.copy(scratch, out));
        } catch (java.io.IOException e) {
            throw new UserInputException(target + ": cannot write: " + Messages.oneLine(e), e);
        } finally {
            Temporaries.delete(scratch); // best effort; else at exit
        }
    }

    private void writeSafely(Scenario s, Path target, List<Path> inputs) {
        CaptureEffects effects = effects();
        if (effects.none()) {
            writeTraceFile(target, inputs, (sink, traceName) -> KinetoScenarioWriter.write(s, sink, traceName));
            return;
        }
        Scenario withSync = hostTimeSync ? s.withSyncEvents(true) : s;
        try {
            effects.check(withSync);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(scenario + ": " + e.getMessage(), e);
        }
        writeTraceFile(target, inputs,
                (sink, traceName) -> KinetoScenarioWriter.write(withSync, effects, sink, traceName));
    }

    /** The capture effects the options ask for ({@link CaptureEffects#NONE} without any). */
    private CaptureEffects effects() {
        try {
            long lag = deviceLagUs == null ? 0 : Durations.usToNs(deviceLagUs);
            long pipeline = pipelineUs == null ? 0 : Durations.usToNs(pipelineUs);
            return new CaptureEffects(lag, hostTimeSync, startsMidStep, pipeline);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
    }

    /** Capture effects are written by the Kineto writer only. */
    private void requireNoEffects(String what) {
        if (!effects().none()) {
            throw new UserInputException("--device-lag-us, --host-time-sync, --capture-starts-mid-step and "
                    + "--pipeline-us apply to single Kineto traces only, not to " + what);
        }
    }

    /** Writes one Kineto trace; what it writes. */
    @FunctionalInterface
    private interface TraceWriter {
        void write(OutputStream sink, String traceName) throws java.io.IOException;
    }

    /**
     * A Kineto trace file through {@link SafeOutput}, gzip-compressed when the name ends with
     * {@code .gz}; the trace records its own name without that suffix, as Kineto does.
     */
    private static void writeTraceFile(Path target, List<Path> inputs, TraceWriter writer) {
        String fileName = target.getFileName().toString();
        boolean gzip = fileName.endsWith(".gz");
        String traceName = gzip ? fileName.substring(0, fileName.length() - 3) : fileName;
        SafeOutput.writeBytes(target, inputs, out -> {
            OutputStream sink = gzip ? new GZIPOutputStream(out, 1 << 16) : out;
            writer.write(sink, traceName);
            sink.flush();
            if (gzip) {
                ((GZIPOutputStream) sink).finish();
            }
        });
    }
}
