package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each step's period went (metrics.md §11) as one stacked horizontal bar per step: compute,
 * fused, communication alone, copies alone, then idle split into host-bound, launched-not-started
 * and launch-unknown. Every bar is drawn on one scale (the longest period), so long steps look
 * long; each segment carries its part and value in a {@code <title>} (shown on hover), and each
 * bar's total is written after it. At most {@link #MAX_STEPS} steps are drawn (the first ones;
 * fewer per rank in a report of many ranks, to keep the file small), and the chart says so when
 * there are more.
 */
final class BreakdownSvg {
    static final int MAX_STEPS = 40;
    private static final double LABEL = 150;
    private static final double PLOT = 900;
    private static final double ROW = 16;
    private static final double BAR = 11;

    /** Segment classes, labels and legend colours, in drawing order. */
    private static final String[][] PARTS = {
            {"k", "compute", "var(--k)"}, {"f", "fused", "var(--f)"}, {"x", "comm alone", "var(--x)"},
            {"m", "copies", "var(--m)"}, {"ih", "idle, host-bound (waiting for the host to issue work)", "var(--ih)"},
            {"il", "idle, launched but not started (a dependency, launch latency)", "var(--il)"},
            {"iu", "idle, launch unknown", "var(--iu)"}};

    private BreakdownSvg() {
    }

    /**
     * The legend and chart for a rank, at most {@code maxSteps} bars (the first steps), or "" when
     * no step has a breakdown.
     */
    static String render(RankReport rank, int maxSteps) {
        List<StepReport> steps = new ArrayList<>();
        int withBreakdown = 0;
        long longest = 0;
        for (StepReport s : rank.steps()) {
            if (s.breakdown() != null) {
                withBreakdown++;
                if (steps.size() < Math.min(MAX_STEPS, maxSteps)) {
                    steps.add(s);
                    longest = Math.max(longest, s.breakdown().totalNs());
                }
            }
        }
        if (steps.isEmpty() || longest <= 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder(512 + steps.size() * 400);
        sb.append("<p class=\"legend\">");
        for (String[] p : PARTS) {
            sb.append("<span><i class=\"sw\" style=\"background:").append(p[2]).append("\"></i>").append(p[1])
                    .append("</span>");
        }
        sb.append("</p>");
        double width = LABEL + PLOT + 90;
        double height = steps.size() * ROW + 6;
        sb.append("<svg class=\"breakdown\" width=\"").append(Html.num(width)).append("\" height=\"")
                .append(Html.num(height)).append("\" viewBox=\"0 0 ").append(Html.num(width)).append(' ')
                .append(Html.num(height)).append("\" role=\"img\" aria-label=\"where each step's period went, rank ")
                .append(rank.rank()).append("\">");
        for (int i = 0; i < steps.size(); i++) {
            StepReport s = steps.get(i);
            double y = 3 + i * ROW;
            sb.append("<g class=\"bd\"><text class=\"axt\" x=\"").append(Html.num(LABEL - 6)).append("\" y=\"")
                    .append(Html.num(y + BAR - 1)).append("\" text-anchor=\"end\">").append(Html.esc(s.name()))
                    .append("</text>");
            StepBreakdown b = s.breakdown();
            IdleBreakdown idle = s.idle();
            long[] ns = idle == null
                    ? new long[] {b.computeNs(), b.fusedNs(), b.commNs(), b.copyNs(), 0, 0, b.idleNs()}
                    : new long[] {b.computeNs(), b.fusedNs(), b.commNs(), b.copyNs(), idle.hostNs(),
                            idle.launchedNs(), idle.unknownNs()};
            long total = b.totalNs();
            long before = 0;
            for (int p = 0; p < PARTS.length; p++) {
                if (ns[p] <= 0) {
                    continue;
                }
                // Edges from cumulative ns, so rounding never leaves gaps or overlaps between segments.
                double x0 = LABEL + PLOT * before / longest;
                double x1 = LABEL + PLOT * (before + ns[p]) / longest;
                before += ns[p];
                sb.append("<rect class=\"").append(PARTS[p][0]).append("\" x=\"").append(Html.num(x0)).append("\" y=\"").append(Html.num(y))
                        .append("\" width=\"").append(Html.num(Math.max(0.2, x1 - x0))).append("\" height=\"")
                        .append(Html.num(BAR)).append("\"><title>").append(Html.esc(PARTS[p][1])).append(' ').append(Units.ms(ns[p])).append(" ms (")
                        .append(Units.pct((double) ns[p] / (double) total)).append(")</title></rect>");
            }
            sb.append("<text class=\"lab\" x=\"").append(Html.num(LABEL + PLOT * total / longest + 4))
                    .append("\" y=\"").append(Html.num(y + BAR - 1)).append("\">").append(Units.ms(total))
                    .append(" ms</text></g>");
        }
        sb.append("</svg>");
        if (withBreakdown > steps.size()) {
            sb.append("<p class=\"muted\">the first ").append(steps.size()).append(" of ").append(withBreakdown)
                    .append(" steps drawn</p>");
        }
        return sb.toString();
    }
}
