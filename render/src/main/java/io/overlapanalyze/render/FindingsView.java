package io.overlapanalyze.render;

import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.RankRanges;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The findings (metrics.md §13) as every human renderer shows them, at the top of the report: what
 * to change, ranked by the time it could save per step, each with the numbers it rests on. Text
 * from the input (host range and group names) reaches the page only through the caller's escaper.
 */
public final class FindingsView {
    /** The heading the findings go under. */
    public static final String TITLE = "What to change, by the time it could save per step";

    private FindingsView() {
    }

    /** "up to 162.071 ms per step (73% of the step)", or "first: the job would hang" for a mismatch. */
    public static String saving(Finding f) {
        if (f.savingNs() == null) {
            return "fix first: the job would hang or reduce the wrong data";
        }
        return "up to " + Units.msUnit(f.savingNs()) + " per step"
                + (f.shareOfStep() == null ? "" : " (" + Units.pct(f.shareOfStep()) + " of the step)");
    }

    /** "rank 0", "ranks 0, 1, 5", "ranks 0–63". */
    public static String ranks(Finding f) {
        if (f.ranks().isEmpty()) {
            return "";
        }
        return (f.ranks().size() == 1 ? "rank " : "ranks ") + RankRanges.text(f.ranks());
    }

    /** The line that stands in for an empty list: nothing to change, or why nothing could be judged. */
    public static String none(AnalysisReport report) {
        return none(report, JobRanks.inReport());
    }

    /** As {@link #none(AnalysisReport)}, each rank read through {@code ranks} (its summary). */
    public static String none(AnalysisReport report, JobRanks ranks) {
        boolean anyStep = report.ranks().stream().anyMatch(r -> ranks.summary(r).judgeable());
        return anyStep ? "nothing stands out: no cause could save 1% of the step"
                : "not available: no step with usable device work to judge";
    }

    /** The findings as numbered plain-text lines, names passed through {@code escape}. */
    public static void text(List<Finding> findings, String indent, UnaryOperator<String> escape, StringBuilder sb) {
        int n = 1;
        for (Finding f : findings) {
            String where = ranks(f);
            sb.append(indent).append(n++).append(". ").append(f.kind()).append(": ").append(saving(f))
                    .append(where.isEmpty() ? "" : ", " + where).append('\n');
            sb.append(indent).append("   evidence: ").append(escape.apply(f.evidence())).append('\n');
            sb.append(indent).append("   change:   ").append(escape.apply(f.action())).append('\n');
        }
    }
}
