package io.overlapanalyze.render.html;

import io.overlapanalyze.report.AnalysisReport;

/**
 * The page's "Across ranks" section, written only when the report has several ranks (a single
 * rank gets the line "single rank: nothing to compare"). {@link CrossRankReportSection} writes the
 * cross-rank analysis (clock offsets, collective mismatches, straggler waits, metrics.md §8) as
 * tables, an offset chart and a rank × collective wait heatmap ({@link Heatmap});
 * {@link RankComparisonSection} alone compares the per-rank results when a report has no
 * cross-rank analysis. {@link HtmlRenderer#HtmlRenderer(io.overlapanalyze.render.timeline.TimelineIndex,
 * CrossRankSection)} takes another implementation.
 */
public interface CrossRankSection {
    /**
     * Appends the section's body (headings below h2, tables, SVG) for a report of two or more ranks:
     * {@link PageJob#report()}, each rank read as its {@link PageRank}.
     */
    void write(PageJob job, StringBuilder html);

    /** {@link #write(PageJob, StringBuilder)} for a report that holds every rank's full report. */
    default void write(AnalysisReport report, StringBuilder html) {
        write(PageJob.inReport(report, new io.overlapanalyze.render.timeline.TimelineIndex()), html);
    }
}
