package io.overlapanalyze.options;

/** The {@code --format} values ({@link ReportOutput#renderer} picks a job report's renderer for each). */
public enum OutputFormat {
    TEXT, JSON, MARKDOWN
}
