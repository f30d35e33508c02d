package io.overlapanalyze.spark;

import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs of the Spark command and of the single-machine pipeline the CLI runs, for comparing them. */
final class SparkRuns {
    private SparkRuns() {
    }

    record Run(int code, String out, String err) {
    }

    /** {@code overlap-analyze-spark ARGS} in this JVM, in local mode on two cores unless ARGS say otherwise. */
    static Run spark(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = args;
        if (!List.of(args).contains("--master")) {
            all = new String[args.length + 2];
            all[0] = "--master";
            all[1] = "local[2]";
            System.arraycopy(args, 0, all, 2, args.length);
        }
        int code = SparkAnalyze.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * The JSON report {@code overlap-analyze -f json PATHS} prints: the CLI's analyze command is the
     * pipeline with every default and the JSON renderer, which is what this runs.
     */
    static String cliJson(Path... paths) throws IOException {
        return cliJson(io.overlapanalyze.formats.input.ReadOptions.DEFAULT, paths);
    }

    /** As {@link #cliJson(Path...)}, every file read this way (the kernel rules a command line gives). */
    static String cliJson(io.overlapanalyze.formats.input.ReadOptions read, Path... paths) throws IOException {
        AnalysisReport report = AnalysisPipeline.run(PipelineInput.of(List.of(paths)).withRead(read)).report();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new JsonRenderer().render(report, bytes);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The project's samples folder. */
    static Path samples() {
        String root = System.getProperty("overlap.projectRoot");
        Path p = root != null ? Path.of(root, "samples") : Path.of("..", "samples");
        return p;
    }

    /** A generated job of {@code ranks} seed-1ms ranks, with {@code extra} job-file fields. */
    static Path job(Path dir, int ranks, int steps, String extra) throws IOException {
        String json = "{\"name\": \"spark-test\", \"ranks\": " + ranks + ", \"scenario\": \"seed-1ms\", \"steps\": "
                + steps + (extra.isEmpty() ? "" : ", " + extra) + "}";
        Job job = Job.parse(json, "spark-test.job.json");
        Files.createDirectories(dir);
        JobWriter.write(job, dir, false);
        return dir;
    }
}
