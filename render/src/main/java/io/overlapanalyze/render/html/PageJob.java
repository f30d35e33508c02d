package io.overlapanalyze.render.html;

import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A job as {@link HtmlRenderer} reads it: the report it renders (for a spilled job, stand-ins with the
 * job's findings), what the page reads of every rank ({@link PageRank}, in the report's order), and the
 * one way to a rank's summary and full report ({@link JobRanks}): the report's own record, or the rank
 * read back from the spill when its section is written, one rank at a time.
 */
public final class PageJob {
    private final AnalysisReport report;
    private final List<PageRank> ranks;
    private final JobRanks full;
    private final TimelineIndex index;

    PageJob(AnalysisReport report, List<PageRank> ranks, JobRanks full, TimelineIndex index) {
        if (ranks.size() != report.ranks().size()) {
            throw new IllegalArgumentException(ranks.size() + " ranks for a report of " + report.ranks().size());
        }
        this.report = report;
        this.ranks = List.copyOf(ranks);
        this.full = full;
        this.index = index;
    }

    /** The page of a report that holds every rank's full report, its timelines in {@code index}. */
    public static PageJob inReport(AnalysisReport report, TimelineIndex index) {
        List<PageRank> ranks = new ArrayList<>(report.ranks().size());
        for (RankReport r : report.ranks()) {
            ranks.add(PageRank.of(r, index, UnaryOperator.identity()));
        }
        return new PageJob(report, ranks, JobRanks.inReport(), index);
    }

    /** The report the page renders. */
    public AnalysisReport report() {
        return report;
    }

    /** What the page reads of every rank, in the report's order. */
    List<PageRank> ranks() {
        return ranks;
    }

    /** Every rank's summary and full report: see {@link JobRanks#full} for when to ask. */
    JobRanks full() {
        return full;
    }

    /** Where the drawn steps' unions are (a rank read back joins it while its section is written). */
    TimelineIndex index() {
        return index;
    }
}
