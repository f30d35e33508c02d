package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.crossrank.CrossRankAnalyzer;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.ClockAlignment;
import io.overlapanalyze.report.CrossRankReport;

import java.util.Map;
import java.util.TreeMap;

/**
 * Which clock offsets the annotated trace applies so that a job's ranks line up in Perfetto: the
 * cross-rank analysis' own (metrics.md §8, the report's {@code crossRank.clockOffsetsNs}: rank r's
 * clock minus the mean clock), subtracted from every time of rank r, so the trace shows each rank
 * on the mean clock, exactly as the analysis compared them. Nothing is applied to one rank, when
 * the analysis did not align (too few collectives every rank joined), or when its alignment is
 * rough (matched collectives still end more than {@link CrossRankAnalyzer#RESIDUAL_WARN_NS} apart
 * after it): moving ranks by offsets the analysis itself does not trust would draw a false picture,
 * so each rank keeps its own clock and {@link #summary()} says why.
 *
 * @param applied        true when the offsets were applied
 * @param offsetsNs      per rank, what was subtracted from its times (empty when not applied)
 * @param maxResidualNs  the analysis' residual: after alignment, the largest distance of a rank's
 *                       collective end from the mean end; {@code null} when not aligned
 * @param collectivesUsed how many collectives every rank joined (what the offsets rest on)
 * @param summary        one line for people (stderr and the trace's metadata); {@code null} for a
 *                       single rank (nothing to align)
 */
public record ClockShift(boolean applied, Map<Integer, Long> offsetsNs, Long maxResidualNs, int collectivesUsed,
                         String summary) {
    /** Ranks listed by name in the summary; the rest are counted (all are in the metadata). */
    static final int RANKS_LISTED = 8;

    public ClockShift {
        offsetsNs = java.util.Collections.unmodifiableMap(new TreeMap<>(offsetsNs));
    }

    /** What to apply for {@code report}. */
    public static ClockShift of(AnalysisReport report) {
        CrossRankReport cross = report.crossRank();
        if (cross == null || report.ranks().size() < 2) {
            return new ClockShift(false, Map.of(), null, 0, null);
        }
        return of(cross.clock(), cross.clockOffsetsNs());
    }

    /** What to apply for a job whose cross-rank analysis aligned its clocks as {@code clock} says. */
    static ClockShift of(ClockAlignment clock, Map<Integer, Long> clockOffsetsNs) {
        if (!clock.aligned()) {
            return new ClockShift(false, Map.of(), null, clock.collectivesUsed(),
                    "clock offsets not applied: each rank is on its own clock (" + clock.note() + ")");
        }
        Long residual = clock.maxResidualNs();
        if (residual == null || residual > CrossRankAnalyzer.RESIDUAL_WARN_NS) {
            return new ClockShift(false, Map.of(), residual, clock.collectivesUsed(),
                    "clock offsets not applied: the clocks are too rough to align (after alignment, matched "
                            + "collectives still end up to " + Micros.of(residual == null ? 0 : residual)
                            + " µs apart); each rank is on its own clock");
        }
        StringBuilder line = new StringBuilder("clock offsets applied so ranks line up (from "
                + clock.collectivesUsed() + " collectives every rank joined; residual " + Micros.of(residual)
                + " µs):");
        int listed = 0;
        Map<Integer, Long> offsets = new TreeMap<>(clockOffsetsNs);
        for (Map.Entry<Integer, Long> e : offsets.entrySet()) {
            if (listed++ == RANKS_LISTED) {
                line.append(" … ").append(offsets.size() - RANKS_LISTED)
                        .append(" more ranks (all in the trace's metadata)");
                break;
            }
            line.append(listed == 1 ? " " : ", ").append("rank ").append(e.getKey()).append(' ')
                    .append(Micros.signed(e.getValue())).append(" µs");
        }
        return new ClockShift(true, offsets, residual, clock.collectivesUsed(), line.toString());
    }

    /** What to subtract from rank {@code rank}'s times (0 when nothing is applied). */
    public long offsetOf(int rank) {
        return applied ? offsetsNs.getOrDefault(rank, 0L) : 0L;
    }
}
