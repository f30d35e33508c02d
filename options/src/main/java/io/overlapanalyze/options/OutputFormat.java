package io.overlapanalyze.options;

import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.MarkdownRenderer;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.render.TextRenderer;

/** The {@code --format} values. */
public enum OutputFormat {
    TEXT, JSON, MARKDOWN;

    /** The renderer of this format (a new one each call). */
    public ReportRenderer renderer() {
        return switch (this) {
            case TEXT -> new TextRenderer();
            case JSON -> new JsonRenderer();
            case MARKDOWN -> new MarkdownRenderer();
        };
    }
}
