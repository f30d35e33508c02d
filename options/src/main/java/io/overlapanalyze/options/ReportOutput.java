package io.overlapanalyze.options;

import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.MarkdownRenderer;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.render.TextRenderer;
import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.timeline.TerminalTimeline;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * How a job's report is written (a picocli mixin on every launcher that writes one: the CLI's
 * analyse command and the Spark launcher): the format ({@code -f}), the layout ({@code --detail},
 * {@code --rank-rows}), where ({@code -o}), the HTML page beside it ({@code --html}) and the
 * profiler's own figures beside ours ({@code --cross-check}); and the one choice of renderer for a
 * format. Paths are kept as typed: a file to the CLI, also a URI to Spark.
 */
public final class ReportOutput {
    @Mixin
    FormatOption format = new FormatOption();

    @Mixin
    LayoutOptions layout = new LayoutOptions();

    @Mixin
    OutputOptions output = new OutputOptions();

    @Option(names = "--cross-check",
            description = "Show, per step, our compute/communication/exposed/idle next to the profiler's own "
                    + "numbers (Ascend Overlap Analysis lane, analysis.db) with the difference. Always in JSON.")
    boolean crossCheck;

    @Option(names = "--html", paramLabel = "FILE", converter = PathConverter.AsTyped.class,
            description = "Also write a self-contained HTML report with timelines to FILE (opens offline).")
    String html;

    /** The format asked for. */
    public OutputFormat format() {
        return format.format();
    }

    /**
     * The layout asked for.
     *
     * @throws UserInputException when {@code --detail} or {@code --rank-rows} is not a value they accept
     */
    public ReportLayout layout() {
        return layout.layout();
    }

    /** {@code --cross-check}. */
    public boolean crossCheck() {
        return crossCheck;
    }

    /** {@code -o}, and the one place that writes to it or to standard output. */
    public OutputOptions output() {
        return output;
    }

    /** {@code --html} as typed (a path or, on Spark, a URI), or {@code null}. */
    public String htmlLocation() {
        return html;
    }

    /** {@code --html} as a file, or {@code null}. */
    public Path htmlFile() {
        return html == null ? null : Path.of(html);
    }

    /**
     * The renderer of the report in the format asked for: text (with {@code timeline} drawn per
     * step, or none when {@code null}), markdown, or JSON (which always carries the cross-check).
     */
    public ReportRenderer renderer(TerminalTimeline timeline) {
        return renderer(timeline, JobRanks.inReport());
    }

    /**
     * As {@link #renderer(TerminalTimeline)}, the text and markdown layouts reading the report's ranks
     * through {@code ranks} (a big job's: stand-ins for full reports kept elsewhere). Not for JSON of
     * such a job: its writer copies the full reports in itself.
     */
    public ReportRenderer renderer(TerminalTimeline timeline, JobRanks ranks) {
        return switch (format()) {
            case TEXT -> new TextRenderer(crossCheck, timeline, layout(), ranks);
            case MARKDOWN -> new MarkdownRenderer(crossCheck, layout(), ranks);
            case JSON -> new JsonRenderer();
        };
    }
}
