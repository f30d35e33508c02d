package io.overlapanalyze.findings;

import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.RankReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The findings of a job (metrics.md §13): each rank's report revised by what the cross-rank analysis
 * learnt and given its findings, then the job's findings from the ranks'. A rank's revision needs
 * its own full report and, of the others, only their {@link RankMedians}: so a launcher that never
 * holds every full report at once (Spark, with reports in part files) revises each rank when it
 * writes it, and ranks the job's findings after the last one.
 */
public final class Findings {
    private final VerdictContext context;
    private final UnaryOperator<RankReport> crossRankRevision;

    private Findings(VerdictContext context, UnaryOperator<RankReport> crossRankRevision) {
        this.context = context;
        this.crossRankRevision = crossRankRevision;
    }

    /**
     * @param crossRank         the job's cross-rank section, or {@code null}
     * @param medians           every rank's medians, by rank id
     * @param ranksRead         how many ranks the input holds
     * @param crossRankRevision what the cross-rank analysis changes in a rank's steps before its
     *                          findings are made (the identity when it changes nothing)
     * @param exposedWaitNs     per rank, its median exposed waiting for peers across ranks (absent: unknown)
     */
    public static Findings of(CrossRankReport crossRank, Map<Integer, RankMedians> medians, int ranksRead,
                              UnaryOperator<RankReport> crossRankRevision, Map<Integer, Long> exposedWaitNs) {
        return new Findings(VerdictContext.ofMedians(crossRank, medians, ranksRead, exposedWaitNs),
                crossRankRevision);
    }

    /** As {@link #of(CrossRankReport, Map, int, UnaryOperator, Map)} without cross-rank waits. */
    public static Findings of(CrossRankReport crossRank, Map<Integer, RankMedians> medians, int ranksRead,
                              UnaryOperator<RankReport> crossRankRevision) {
        return of(crossRank, medians, ranksRead, crossRankRevision, Map.of());
    }

    /** The median of whole ns as findings and the totals take it ({@link io.overlapanalyze.analysis.ExactMedian}). */
    public static long median(long[] values) {
        return StepFigures.median(values);
    }

    /** Every rank's medians, by rank id (the first report of an id when two share it). */
    public static Map<Integer, RankMedians> medians(List<RankReport> ranks) {
        Map<Integer, RankMedians> medians = new TreeMap<>();
        for (RankReport r : ranks) {
            medians.putIfAbsent(r.rank(), RankMedians.of(r));
        }
        return medians;
    }

    /** The rank's full report revised across ranks, with its findings. */
    public RankReport revise(RankReport full) {
        RankReport revised = crossRankRevision.apply(full);
        return revised.withFindings(RankFindings.of(revised, context));
    }

    /** The job's findings from every rank's revised report, in the report's rank order. */
    public List<Finding> job(List<JobFindings.RankFindingsOf> ranks) {
        return JobFindings.of(ranks, context);
    }

    /**
     * @param ranks    every rank's report with its findings
     * @param findings the job's findings
     */
    public record Judged(List<RankReport> ranks, List<Finding> findings) {
    }

    /** Revises every rank (all held here) and ranks the job's findings. */
    public Judged judge(List<RankReport> ranks) {
        List<RankReport> judged = new ArrayList<>(ranks.size());
        for (RankReport r : ranks) {
            judged.add(revise(r));
        }
        return new Judged(judged, job(JobFindings.of(judged)));
    }
}
