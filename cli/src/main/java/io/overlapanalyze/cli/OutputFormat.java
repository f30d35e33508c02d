package io.overlapanalyze.cli;

import io.overlapanalyze.cli.render.JsonRenderer;
import io.overlapanalyze.cli.render.MarkdownRenderer;
import io.overlapanalyze.cli.render.ReportRenderer;
import io.overlapanalyze.cli.render.TextRenderer;

/** The {@code --format} values. */
public enum OutputFormat {
    TEXT, JSON, MARKDOWN;

    ReportRenderer renderer() {
        return switch (this) {
            case TEXT -> new TextRenderer();
            case JSON -> new JsonRenderer();
            case MARKDOWN -> new MarkdownRenderer();
        };
    }
}
