package io.overlapanalyze.cli.render.html;

import io.overlapanalyze.report.AnalysisReport;

/**
 * The page's "Across ranks" section, written only when the report has several ranks (a single
 * rank gets the line "single rank: nothing to compare"). A separate seam because the cross-rank
 * analysis (clock offsets, collective mismatches, straggler waits, metrics.md §8) is developed on
 * its own: it supplies an implementation with its tables and a rank × collective wait heatmap
 * ({@link Heatmap}), and {@link HtmlRenderer#HtmlRenderer(io.overlapanalyze.cli.render.timeline.TimelineIndex,
 * CrossRankSection)} takes it. Until then {@link RankComparisonSection} compares the per-rank
 * results.
 */
public interface CrossRankSection {
    /** Appends the section's body (headings below h2, tables, SVG) for a report of two or more ranks. */
    void write(AnalysisReport report, StringBuilder html);
}
