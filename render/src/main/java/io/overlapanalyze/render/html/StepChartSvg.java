package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;

import java.util.List;

/**
 * Tail (bars) and exposed communication (line) per step, to spot the steps that differ; a
 * single step is two bars with their values written on them. The value axis ends at the round
 * value at or just above the largest ({@link AxisScale}). More steps than {@link #MAX_POINTS}
 * are binned (each bin shows its largest values), so a run of thousands of steps costs the same
 * few kilobytes.
 */
final class StepChartSvg {
    static final int MAX_POINTS = 400;
    private static final double PLOT = 1000;
    private static final double GUTTER = 92;
    private static final double HEIGHT = 120;
    private static final double TOP = 10;
    /** Gridlines above zero: at most this many, at a round step. */
    private static final int MAX_INTERVALS = 5;
    /** Width of the two bars of a one-step chart, and the gap between them. */
    private static final double SINGLE_BAR = 60;
    private static final double SINGLE_GAP = 120;

    /**
     * Values per step in ns; {@code tail[i] < 0} means the tail is not defined for step i.
     *
     * @param labels  step names (first and last are printed under the axis)
     * @param tail    tail per step, or −1
     * @param exposed exposed communication per step
     */
    record Series(List<String> labels, long[] tail, long[] exposed) {
    }

    private StepChartSvg() {
    }

    static String render(Series in, String ariaLabel) {
        Series s = in.labels().size() > MAX_POINTS ? bin(in, MAX_POINTS) : in;
        int n = s.labels().size();
        long max = 0;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, Math.max(s.tail()[i], s.exposed()[i]));
        }
        AxisScale axis = AxisScale.of(max, AxisScale.MICROSECOND, MAX_INTERVALS);
        long top = axis.top();
        double slot = PLOT / Math.max(1, n);
        double base = TOP + HEIGHT;
        StringBuilder sb = new StringBuilder(1024 + n * 40);
        double width = GUTTER + PLOT + 28;
        double height = base + 34;
        sb.append("<svg class=\"stepchart\" width=\"").append(Html.num(width)).append("\" height=\"")
                .append(Html.num(height)).append("\" viewBox=\"0 0 ").append(Html.num(width)).append(' ')
                .append(Html.num(height)).append("\" role=\"img\" aria-label=\"").append(Html.esc(ariaLabel))
                .append("\" data-steps=\"").append(in.labels().size()).append("\" data-axis-top-ns=\"").append(top)
                .append("\">");
        for (int g = 0; g <= axis.intervals(); g++) {
            double y = base - HEIGHT * g / axis.intervals();
            sb.append("<path class=\"grid\" d=\"M").append(Html.num(GUTTER)).append(' ').append(Html.num(y))
                    .append('h').append(Html.num(PLOT)).append("\"/><text class=\"axt\" x=\"").append(Html.num(GUTTER - 4))
                    .append("\" y=\"").append(Html.num(y + 4)).append("\" text-anchor=\"end\">")
                    .append(Units.ms(axis.step() * g)).append("</text>");
        }
        sb.append("<text class=\"axt\" x=\"4\" y=\"").append(Html.num(TOP + 8)).append("\">ms</text>");
        if (n == 1) {
            singleStep(s, top, base, sb);
        } else {
            bars(s, top, slot, base, sb);
        }
        if (n == 1) {
            sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER + PLOT / 2)).append("\" y=\"")
                    .append(Html.num(base + 16)).append("\" text-anchor=\"middle\">")
                    .append(Html.esc(s.labels().get(0))).append("</text>");
        } else {
            sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER)).append("\" y=\"")
                    .append(Html.num(base + 16)).append("\">").append(Html.esc(s.labels().get(0))).append("</text>");
        }
        if (n > 1) {
            sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER + PLOT)).append("\" y=\"")
                    .append(Html.num(base + 16)).append("\" text-anchor=\"end\">")
                    .append(Html.esc(s.labels().get(n - 1))).append("</text>");
        }
        sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER + PLOT / 2)).append("\" y=\"")
                .append(Html.num(base + 30)).append("\" text-anchor=\"middle\">")
                .append(n < in.labels().size() ? in.labels().size() + " steps in " + n + " bins (largest value per bin)"
                        : n + (n == 1 ? " step" : " steps"))
                .append("</text></svg>");
        return sb.toString();
    }

    /** Tail as bars, exposed communication as a line with a dot per step (numbers on hover). */
    private static void bars(Series s, long top, double slot, double base, StringBuilder sb) {
        int n = s.labels().size();
        sb.append("<path class=\"bar\" d=\"");
        double barW = Math.max(0.6, Math.min(28, slot * 0.6));
        for (int i = 0; i < n; i++) {
            if (s.tail()[i] > 0) {
                double h = HEIGHT * s.tail()[i] / top;
                sb.append('M');
                Html.num(sb, GUTTER + i * slot + (slot - barW) / 2).append(' ');
                Html.num(sb, base - h).append('h');
                Html.num(sb, barW).append('v');
                Html.num(sb, h).append('h');
                Html.num(sb, -barW).append('z');
            }
        }
        sb.append("\"/><path class=\"line\" d=\"");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? 'M' : 'L');
            Html.num(sb, GUTTER + (i + 0.5) * slot).append(' ');
            Html.num(sb, base - HEIGHT * s.exposed()[i] / top);
        }
        sb.append("\"/>");
        if (n <= 60) {
            // Few points: a dot per step with its numbers on hover.
            for (int i = 0; i < n; i++) {
                sb.append("<circle class=\"dot\" r=\"2.5\" cx=\"").append(Html.num(GUTTER + (i + 0.5) * slot))
                        .append("\" cy=\"").append(Html.num(base - HEIGHT * s.exposed()[i] / top)).append("\"><title>")
                        .append(Html.esc(s.labels().get(i))).append(": tail ")
                        .append(s.tail()[i] < 0 ? "-" : Units.ms(s.tail()[i])).append(" ms, exposed comm ")
                        .append(Units.ms(s.exposed()[i])).append(" ms</title></circle>");
            }
        }
    }

    /**
     * One step has no line to draw: tail and exposed communication as two bars side by side, each
     * with its value written above it.
     */
    private static void singleStep(Series s, long top, double base, StringBuilder sb) {
        double mid = GUTTER + PLOT / 2;
        long tail = s.tail()[0];
        singleBar("bar", "tail", "tail", tail < 0 ? null : tail, mid - SINGLE_BAR - SINGLE_GAP / 2, top, base, sb);
        singleBar("x", "exposed", "exposed comm", s.exposed()[0], mid + SINGLE_GAP / 2, top, base, sb);
    }

    private static void singleBar(String cls, String series, String what, Long ns, double x, long top,
            double base, StringBuilder sb) {
        double h = ns == null ? 0 : HEIGHT * ns / top;
        sb.append("<g class=\"single\" data-series=\"").append(series).append("\" data-ns=\"")
                .append(ns == null ? "" : ns).append("\">");
        if (h > 0) {
            sb.append("<rect class=\"").append(cls).append("\" x=\"").append(Html.num(x)).append("\" y=\"")
                    .append(Html.num(base - h)).append("\" width=\"").append(Html.num(SINGLE_BAR))
                    .append("\" height=\"").append(Html.num(h)).append("\"/>");
        }
        sb.append("<text class=\"lab\" x=\"").append(Html.num(x + SINGLE_BAR / 2)).append("\" y=\"")
                .append(Html.num(base - h - 4)).append("\" text-anchor=\"middle\">").append(what).append(' ')
                .append(Html.esc(Units.msUnit(ns))).append("</text></g>");
    }

    private static Series bin(Series in, int bins) {
        int n = in.labels().size();
        String[] labels = new String[bins];
        long[] tail = new long[bins];
        long[] exposed = new long[bins];
        for (int b = 0; b < bins; b++) {
            int from = (int) ((long) b * n / bins);
            int to = (int) ((long) (b + 1) * n / bins);
            tail[b] = -1;
            for (int i = from; i < to; i++) {
                tail[b] = Math.max(tail[b], in.tail()[i]);
                exposed[b] = Math.max(exposed[b], in.exposed()[i]);
            }
            labels[b] = in.labels().get(from) + (to - 1 > from ? " … " + in.labels().get(to - 1) : "");
        }
        return new Series(List.of(labels), tail, exposed);
    }
}
