package io.overlapanalyze.spark;

import io.overlapanalyze.options.OutputFormat;
import io.overlapanalyze.options.ReportOutput;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.html.HtmlRenderer;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.reportfile.ReportJson;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.SparkConf;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the job's outputs go: the report ({@code -o}, else standard output), the summary
 * baseline ({@code --summary}) and the HTML page ({@code --html}), each a local path (written as the CLI writes files: never onto
 * an input, through a temporary file) or a Hadoop FileSystem URI; and the directory for the
 * report parts tasks write.
 */
final class JobOutputs {
    /** The most a task sends back of one rank's report: the rest is written to a part file. */
    static final long MAX_INLINE_BYTES = 1L << 20;

    private final String report;
    private final String summary;
    /** The HTML page's location; {@code null}: no page. */
    private final String html;
    /** True when the page goes to standard output ({@code --html -}). */
    private final boolean htmlToStdout;
    private final Configuration conf;
    private final OutputStream stdoutBytes;
    private final List<Path> localInputs = new ArrayList<>();

    /**
     * @param stdoutBytes standard output as bytes (the process's), or {@code null} to write the
     *                    report through the command's text writer (tests)
     */
    JobOutputs(String report, String summary, String html, Configuration conf, OutputStream stdoutBytes) {
        this.stdoutBytes = stdoutBytes;
        this.report = report == null || SafeOutput.isStandardOutput(Path.of(report)) ? null : report;
        this.summary = summary;
        this.htmlToStdout = html != null && !InputLocations.isUri(html) && SafeOutput.isStandardOutput(Path.of(html));
        this.html = htmlToStdout ? null : html;
        this.conf = conf;
        Map<String, Path> named = new LinkedHashMap<>();
        if (html != null && !InputLocations.isUri(html)) {
            named.put("--html", Path.of(html));
        }
        if (summary != null && !InputLocations.isUri(summary)) {
            named.put("--summary", Path.of(summary));
        }
        named.put(this.report != null ? "-o" : "the report (standard output)",
                this.report != null && !InputLocations.isUri(this.report) ? Path.of(this.report) : Path.of("-"));
        SafeOutput.requireDistinct(named);
        if (report != null && report.equals(summary)) {
            throw new UserInputException("-o and --summary name the same file: " + report);
        }
        if (html != null && (html.equals(report) || html.equals(summary))) {
            throw new UserInputException("--html and " + (html.equals(report) ? "-o" : "--summary")
                    + " name the same file: " + html);
        }
    }

    /** Whether an HTML page was asked for. */
    boolean html() {
        return html != null || htmlToStdout;
    }

    /** Refuses an output that is one of the inputs, or inside an input directory. */
    void refuseInputs(List<RankFile> inputs) {
        for (RankFile f : inputs) {
            if (f.local()) {
                localInputs.add(Path.of(f.shownAs()));
            }
        }
        for (String out : new String[] {html, report, summary}) {
            if (out == null) {
                continue;
            }
            if (InputLocations.isUri(out)) {
                String target = new org.apache.hadoop.fs.Path(out).toString();
                for (RankFile f : inputs) {
                    if (!f.local() && (target.equals(f.location()) || target.startsWith(f.location() + "/"))) {
                        throw new UserInputException(out + ": is an input; refusing to overwrite it");
                    }
                }
            } else {
                SafeOutput.check(Path.of(out), localInputs);
            }
        }
    }

    /**
     * Where tasks write big ranks' reports: a new directory of this run's own, in {@code explicit}
     * if given, else next to {@code -o}; {@code null} without either (every report then comes
     * back to the driver). Only that directory is removed afterwards, never the user's.
     */
    String partsLocation(String explicit) {
        String run = java.util.UUID.randomUUID().toString();
        if (explicit != null) {
            String base = InputLocations.isUri(explicit) ? explicit : Path.of(explicit).toAbsolutePath().toUri().toString();
            return base.replaceAll("/+$", "") + "/overlap-analyze-parts-" + run;
        }
        if (report == null) {
            return null;
        }
        if (InputLocations.isUri(report)) {
            return report + ".parts-" + run;
        }
        Path abs = Path.of(report).toAbsolutePath();
        return abs.resolveSibling("." + abs.getFileName() + ".parts-" + run).toUri().toString();
    }

    /**
     * The largest report a task sends back: small enough that every rank's together stay well
     * under {@code spark.driver.maxResultSize} (1 GB by default), and at most {@link #MAX_INLINE_BYTES}.
     */
    static long inlineBytes(SparkConf conf, int ranks) {
        long max = conf.getSizeAsBytes("spark.driver.maxResultSize", "1g");
        long share = max <= 0 ? MAX_INLINE_BYTES : max / (4L * Math.max(1, ranks));
        return Math.min(MAX_INLINE_BYTES, share);
    }

    /** Writes what {@code options} ask for; the report's renderer is the CLI's, except JSON (with its parts). */
    void write(SparkJob.Result result, ReportOutput options, PrintWriter stdout) throws IOException {
        ReportLayout layout = options.layout();
        AnalysisReport r = result.pipeline().report();
        if (html()) {
            // The CLI's page: its renderer, over the timelines the tasks computed from the traces.
            writeTo(html, stdout, o -> {
                java.io.Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(o, StandardCharsets.UTF_8));
                new HtmlRenderer(result.timelines(), layout).render(result.page(), w);
                w.flush();
            });
        }
        if (summary != null) {
            writeTo(summary, null, o -> ReportJson.write(o, r, result.parts(), result.pipeline().findings(), true,
                    ReportParts.reader(conf)));
        }
        if (options.format() == OutputFormat.JSON) {
            writeTo(report, stdout, o -> ReportJson.write(o, r, result.parts(), result.pipeline().findings(), false,
                    ReportParts.reader(conf)));
        } else {
            // No character timelines: the driver holds no trace to draw them from.
            writeTo(report, stdout, o -> options.renderer(null).render(r, o));
        }
    }

    private interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private void writeTo(String location, PrintWriter stdout, Content content) throws IOException {
        if (location == null) {
            // Standard output as the command was given it: the process's own stream, or a test's writer.
            stdout.flush();
            if (stdoutBytes != null) {
                content.writeTo(stdoutBytes);
                stdoutBytes.flush();
            } else {
                java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
                content.writeTo(buffer);
                stdout.write(buffer.toString(java.nio.charset.StandardCharsets.UTF_8));
                stdout.flush();
            }
            return;
        }
        if (!InputLocations.isUri(location)) {
            SafeOutput.writeBytes(Path.of(location), localInputs, content::writeTo);
            return;
        }
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(location);
        FileSystem fs = p.getFileSystem(conf);
        try (FSDataOutputStream out = fs.create(p, true)) {
            content.writeTo(out);
        }
    }

    /**
     * Creates the report parts' directory before the job starts, so that a location nobody can
     * write is one line at once, not a failed task per rank.
     */
    void createParts(String parts) {
        if (parts == null) {
            return;
        }
        try {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(parts);
            if (!p.getFileSystem(conf).mkdirs(p)) {
                throw new IOException("mkdirs failed");
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new UserInputException(parts + ": cannot create the directory for the ranks' reports: "
                    + io.overlapanalyze.formats.input.Messages.oneLine(e), e);
        }
    }

    /** Removes the report parts once the report holds them (or the job failed). */
    void removeParts(String parts) {
        if (parts == null) {
            return;
        }
        try {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(parts);
            p.getFileSystem(conf).delete(p, true);
        } catch (IOException e) {
            // left behind: a directory of JSON files next to the report, harmless
        }
    }
}
