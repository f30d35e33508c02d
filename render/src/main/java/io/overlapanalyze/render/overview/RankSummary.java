package io.overlapanalyze.render.overview;

import io.overlapanalyze.report.RankReport;

/**
 * What a job's human layouts (text, markdown) read of every rank, not only of the ranks they show in
 * detail: its overview row, the facts the overview's opening line and the findings' empty line
 * state, and its number of steps. Made from the rank's full report as revised across ranks (the
 * row's tail cause and waiting share change there), so a job whose full reports are kept elsewhere
 * (a spill) lays out the same as one holding them. A few numbers per rank, no per-step list.
 *
 * @param rank      rank id
 * @param format    input format, as the report names it
 * @param worldSize the world size the rank states, or {@code null}
 * @param steps     every step of the report, counted in its totals or not
 * @param judgeable some step has a step period and usable device data: findings could be made
 * @param row       the rank's overview row, unflagged (the job's findings and cross-rank errors set
 *                  the flags: {@link RankRow#straggler()}, {@link RankRow#error()})
 */
public record RankSummary(int rank, String format, Integer worldSize, int steps, boolean judgeable, RankRow row) {
    /** The summary of a rank's full report. */
    public static RankSummary of(RankReport r) {
        // A step marked as having no usable data (clocks that disagree) is nothing to judge either.
        boolean judgeable = r.steps().stream().anyMatch(s -> s.stepPeriodNs() != null && s.hasUsableData());
        return new RankSummary(r.rank(), r.format(), r.worldSize(), r.steps().size(), judgeable,
                JobOverview.row(r, false, false));
    }
}
