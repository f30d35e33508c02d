package io.overlapanalyze.cli;

import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
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
        versionProvider = AnalyzeCommand.VersionProvider.class,
        description = {"Write a synthetic profiler trace of a scenario.",
                "",
                "A scenario is compute blocks and gradient buckets with their bytes and communication times; the "
                        + "trace has known ground truth. SCENARIO is a built-in name (see --list) or a scenario JSON "
                        + "file (see samples/*.scenario.json). A job file (with \"ranks\", see samples/*.job.json) "
                        + "or --ranks N writes one trace per rank into a directory (rank-<r>.pt.trace.json), with "
                        + "clock offsets, a slow rank or mismatches as the job says."})
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
                    + "(a torch_npu <name>_ascend_pt directory with ASCEND_PROFILER_OUTPUT/trace_view.json). "
                    + "Default: nsys when the output ends in .sqlite, else kineto.")
    String traceFormat;

    @Option(names = "--ranks", paramLabel = "N",
            description = "Write a healthy job of N ranks running SCENARIO into the directory -o (default: <scenario>/).")
    Integer ranks;

    @Option(names = "--gzip", description = "For jobs: write rank-<r>.pt.trace.json.gz.")
    boolean gzip;

    @Option(names = "--list", description = "List the built-in scenarios.")
    boolean list;

    @Option(names = "--debug", description = "Print stack traces for errors.")
    boolean debug;

    @Override
    public Integer call() {
        if (list) {
            for (String name : BuiltinScenarios.names()) {
                spec.commandLine().getOut().println(name + "  " + BuiltinScenarios.get(name).description());
            }
            for (String name : ParallelScenarioWriter.builtinNames()) {
                spec.commandLine().getOut().println(name + "  " + ParallelScenarioWriter.description(name));
            }
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
        if (scenario == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'SCENARIO' (a built-in name or a scenario file; --list shows names)");
        }
        if (isParallel(scenario)) {
            return writeParallel();
        }
        Path asFile = Path.of(scenario);
        if (ranks != null || (Files.isRegularFile(asFile) && Job.isJobFile(asFile))) {
            return writeJob(asFile);
        }
        Scenario s = resolve(scenario);
        String format = targetFormat();
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

    /** A torch_npu capture directory; never written into an existing path. */
    private Integer writeAscend(Scenario s) {
        Path dir = output != null ? output : Path.of(AscendScenarioWriter.directoryName(s));
        if (Files.exists(dir)) {
            throw new UserInputException(dir + ": already exists; choose a new directory for the Ascend capture");
        }
        try {
            AscendScenarioWriter.write(s, dir);
        } catch (java.io.IOException e) {
            throw new UserInputException(dir + ": cannot write: " + TraceLoader.oneLine(e), e);
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

    /** An FSDP / pipeline / contention scenario (issue 10): a built-in of those, or a file with "kind". */
    private static boolean isParallel(String nameOrFile) {
        Path file = Path.of(nameOrFile);
        if (Files.isRegularFile(file)) {
            return ParallelScenarioWriter.isParallelScenario(file);
        }
        return ParallelScenarioWriter.builtinNames().contains(nameOrFile);
    }

    /** Parallelism scenarios are written as Kineto traces only. */
    private Integer writeParallel() {
        if (!targetFormat().equals("kineto")) {
            throw new UserInputException(scenario + ": FSDP, pipeline and contention scenarios are written as Kineto "
                    + "traces only (--format kineto, a .json or .json.gz output)");
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
        throw new UserInputException(nameOrFile + ": neither a scenario file nor a built-in scenario (built-ins: "
                + String.join(", ", BuiltinScenarios.names()) + ")");
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
            scratch = Files.createTempFile(dir, "." + target.getFileName(), ".sqlite.tmp");
        } catch (java.io.IOException e) {
            throw new UserInputException(target + ": cannot write: " + TraceLoader.oneLine(e), e);
        }
        try {
            NsysScenarioWriter.write(s, scratch);
            SafeOutput.writeBytes(target, inputs, out -> Files.copy(scratch, out));
        } catch (java.io.IOException e) {
            throw new UserInputException(target + ": cannot write: " + TraceLoader.oneLine(e), e);
        } finally {
            try {
                Files.deleteIfExists(scratch);
            } catch (java.io.IOException ignored) {
                // a leftover hidden scratch file is harmless
            }
        }
    }

    private static void writeSafely(Scenario s, Path target, List<Path> inputs) {
        writeTraceFile(target, inputs, (sink, traceName) -> KinetoScenarioWriter.write(s, sink, traceName));
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
