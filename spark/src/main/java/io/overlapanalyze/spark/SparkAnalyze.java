package io.overlapanalyze.spark;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.options.DebugOption;
import io.overlapanalyze.options.OptionParsing;
import io.overlapanalyze.options.OutputFormat;
import io.overlapanalyze.options.ReportOutput;
import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.TraceInputs;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.Version;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.deploy.SparkHadoopUtil;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze-spark [--master URL] [analyze options] PATH|URI...}: the main job of
 * {@code overlap-analyze} on Apache Spark, for jobs too big for one machine. One task per rank
 * file reads and analyses that rank with the single-machine code; the driver runs the cross-rank
 * analysis over the ranks' digests and writes the same report the CLI writes.
 *
 * <p>Run it with {@code spark-submit --class io.overlapanalyze.spark.SparkAnalyze
 * overlap-analyze-spark.jar …} on a cluster (the master comes from spark-submit), or with the
 * {@code ./overlap-analyze-spark} launcher (local mode on every core unless {@code --master}).
 */
@Command(name = "overlap-analyze-spark",
        mixinStandardHelpOptions = true,
        versionProvider = SparkAnalyze.ToolVersion.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
                "The overlap-analyze report of a job too big for one machine, computed on Apache Spark: one task per "
                        + "rank file (read and analysed alone), the cross-rank analysis on the driver. The report is "
                        + "the one 'overlap-analyze' prints for the same inputs.",
                "",
                "PATH is a local trace file, directory or quoted glob, as for overlap-analyze (read in place by the "
                        + "tasks: local mode, or a file system every executor mounts at the same path). URI is a Hadoop "
                        + "FileSystem URI (hdfs://, s3a:// with the connector, file://): a file, a directory or a glob; "
                        + "tasks copy what they read and remove the copy."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or unreadable input, 3 internal error."})
public final class SparkAnalyze implements Callable<Integer> {
    static final int OK = 0;
    static final int BAD_INPUT = 2;
    static final int INTERNAL_ERROR = 3;

    @Spec
    CommandSpec spec;

    /** Standard output as bytes when the real process runs; {@code null} in tests, which capture the writer. */
    private final java.io.OutputStream stdoutBytes;

    SparkAnalyze(java.io.OutputStream stdoutBytes) {
        this.stdoutBytes = stdoutBytes;
    }

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master, e.g. spark://host:7077 or yarn (default: the one spark-submit gives, "
                    + "else local[*]: every core of this machine).")
    String master;

    @Option(names = "--conf", paramLabel = "KEY=VALUE",
            description = "A Spark setting, as for spark-submit (repeatable), e.g. spark.executor.memory=4g.")
    List<String> sparkSettings = new ArrayList<>();

    @Mixin
    TraceInputs inputs = new TraceInputs();

    @Parameters(paramLabel = "PATH|URI", arity = "0..*", description = "Trace files, directories or globs; local paths or URIs.")
    List<String> locations = new ArrayList<>();

    /** As the CLI's; here -o and --html also take a URI. */
    @Mixin
    ReportOutput report = new ReportOutput();

    @Option(names = "--summary", paramLabel = "PATH|URI",
            description = "Also write the summary baseline 'overlap-analyze summary' writes (for gate and diff).")
    String summary;

    @Option(names = "--report-parts", paramLabel = "URI",
            description = "Where tasks write the full reports of big ranks for the driver to copy into a JSON "
                    + "report (default: next to -o, removed afterwards; without -o every report comes back to the driver).")
    String reportParts;

    @Mixin
    DebugOption debug = new DebugOption();

    public static void main(String[] args) {
        java.io.OutputStream stdout = new java.io.BufferedOutputStream(System.out, 1 << 16);
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(stdout, java.nio.charset.StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = run(args, out, err, stdout);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the command with these streams and returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, null);
    }

    private static int run(String[] args, PrintWriter out, PrintWriter err, java.io.OutputStream stdoutBytes) {
        CommandLine cl = new CommandLine(new SparkAnalyze(stdoutBytes));
        cl.setOut(out);
        cl.setErr(err);
        OptionParsing.configure(cl);
        cl.setExecutionExceptionHandler(SparkAnalyze::handle);
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("overlap-analyze-spark: " + Messages.printable(ex.getMessage()));
            c.getErr().println("Try 'overlap-analyze-spark --help' for more information.");
            c.getErr().flush();
            return BAD_INPUT;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        // Checked first, as the CLI checks them; the tasks get them in their settings (the driver reads no trace).
        KernelRules rules = inputs.kernelPatterns().rules();
        if (locations.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "Missing required parameter: 'PATH|URI' (a trace file, directory or URI)");
        }
        PipelineInput pipeline = inputs.options().pipeline(List.of(), rules);
        OutputFormat fmt = report.format();
        SparkConf conf = new SparkConf().setAppName("overlap-analyze");
        for (String setting : sparkSettings) {
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new UserInputException("--conf: expected KEY=VALUE, got '" + setting + "'");
            }
            conf.set(setting.substring(0, eq), setting.substring(eq + 1));
        }
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        shipOwnJar(conf);
        // Inputs and outputs are checked before Spark starts: a missing URI is one line, at once.
        Configuration hadoop = SparkHadoopUtil.get().newConfiguration(conf);
        JobOutputs outputs = new JobOutputs(report.output().location(), summary, report.htmlLocation(), hadoop,
                stdoutBytes);
        InputLocations.Expanded expanded = InputLocations.expand(locations, pipeline, hadoop);
        outputs.refuseInputs(expanded.files());
        JobSettings settings = JobSettings.of(pipeline);
        if (outputs.html()) {
            settings = settings.withHtml(expanded.files().size());
        }
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            String parts = fmt == OutputFormat.JSON ? outputs.partsLocation(reportParts) : null;
            if (parts != null) {
                settings = settings.withReportParts(parts, JobOutputs.inlineBytes(sc.getConf(), expanded.files().size()));
            }
            SparkJob.Result result;
            try {
                outputs.createParts(parts);
                result = SparkJob.run(sc, expanded, settings);
                PrintWriter err = spec.commandLine().getErr();
                warn(err, result);
                outputs.write(result, report, spec.commandLine().getOut());
            } finally {
                outputs.removeParts(parts);
            }
        }
        return OK;
    }

    /**
     * Outside local mode the executors need this program's classes. spark-submit ships the jar it
     * is given; started directly (the launcher, with {@code --master}), the driver ships the jar
     * it runs from, unless the user chose {@code spark.jars}. Not from a jar (classes in a
     * directory, as in tests), there is nothing to ship: the executors' classpath must hold them.
     */
    static void shipOwnJar(SparkConf conf) {
        if (conf.get("spark.master", "").startsWith("local") || conf.contains("spark.submit.deployMode")
                || conf.contains("spark.jars")) {
            return;
        }
        java.security.CodeSource source = SparkAnalyze.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return;
        }
        try {
            java.nio.file.Path self = java.nio.file.Path.of(source.getLocation().toURI());
            if (java.nio.file.Files.isRegularFile(self) && self.getFileName().toString().endsWith(".jar")) {
                conf.set("spark.jars", self.toUri().toString());
            }
        } catch (java.net.URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            // not a local file: nothing this driver can ship
        }
    }

    /**
     * As the CLI ({@link StderrWarnings#ofPipeline}): files left out as no trace, unreadable
     * inputs, then every rank's warnings, which the tasks sent (a report in a part file is not here).
     */
    private static void warn(PrintWriter err, SparkJob.Result result) {
        StderrWarnings.notes(err, result.pipeline().skipped());
        StderrWarnings.lines(err, result.pipeline().unreadableLines().stream().map(Messages::printable).toList());
        StderrWarnings.lines(err, result.warnings());
    }

    /** One line on standard error and the exit code; the stack trace only with {@code --debug}. */
    private static int handle(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        boolean debug = parsed.hasMatchedOption("--debug");
        PrintWriter err = cl.getErr();
        Throwable cause = userProblem(ex);
        int code;
        if (cause != null) {
            err.println("overlap-analyze-spark: " + Messages.printable(cause.getMessage()));
            code = BAD_INPUT;
        } else {
            // A failed Spark job's message holds the task's stack trace after its first line.
            err.println("overlap-analyze-spark: internal error: " + Messages.printable(Messages.firstLine(String.valueOf(ex)))
                    + (debug ? "" : " (run with --debug for the stack trace, and please report it)"));
            code = INTERNAL_ERROR;
        }
        if (debug) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /** The problem with the user's input behind {@code ex} (also when Spark wrapped it in a task failure), or {@code null}. */
    private static Throwable userProblem(Throwable ex) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (UserInputException.isInputProblem(t)) {
                return t;
            }
        }
        return null;
    }

    /** {@code --version}: the tool's version, as the CLI prints it. */
    static final class ToolVersion implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {Version.tool() + " (Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION() + ")"};
        }
    }

}
