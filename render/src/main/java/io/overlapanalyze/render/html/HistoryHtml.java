package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * A run history as one HTML page (a CI artifact): step time, tail, exposed communication and idle per run, each
 * a line chart of its medians (inline SVG, no script, the report's style sheet), then the runs as a table. A
 * run without a value (no step defines it) is a gap in its line, never a zero. Knows nothing of databases: the
 * caller gives the points.
 */
public final class HistoryHtml {
    private static final double PLOT = 1000;
    private static final double GUTTER = 92;
    private static final double HEIGHT = 110;
    private static final double TOP = 10;
    private static final int MAX_INTERVALS = 5;

    private HistoryHtml() {
    }

    /**
     * One run.
     *
     * @param id       the run's id in the history
     * @param time     when it was appended
     * @param commit   its commit, or {@code null}
     * @param branch   its branch, or {@code null}
     * @param passed   recorded as passing
     * @param stepNs   median step time, or {@code null} when no step defines it (likewise the others)
     * @param tailNs   median tail
     * @param exposedNs median exposed communication
     * @param idleNs   median idle
     */
    public record Point(long id, String time, String commit, String branch, boolean passed, Long stepNs, Long tailNs,
                        Long exposedNs, Long idleNs) {
    }

    /** Writes the page for {@code points} (oldest first), titled with {@code title} (escaped here). */
    public static void write(String title, List<Point> points, Writer out) throws IOException {
        StringBuilder sb = new StringBuilder(4096 + points.size() * 400);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(Html.esc(title)).append("</title><style>").append(Styles.CSS)
                .append("</style></head><body>\n<h1>").append(Html.esc(title)).append("</h1>\n<p class=\"muted\">")
                .append(points.size()).append(points.size() == 1 ? " run" : " runs")
                .append(", oldest first; each value is the median over the run's complete steps and ranks (ms).</p>\n");
        chart(sb, "Step time", "step", points, Point::stepNs);
        chart(sb, "Tail", "tail", points, Point::tailNs);
        chart(sb, "Exposed communication", "exposed", points, Point::exposedNs);
        chart(sb, "Idle", "idle", points, Point::idleNs);
        sb.append("<h2>Runs</h2>\n<div class=\"tw\"><table class=\"runs\"><tr><th>run</th><th class=\"l\">time</th>"
                + "<th class=\"l\">commit</th><th class=\"l\">branch</th><th class=\"l\">passed</th><th>step</th>"
                + "<th>tail</th><th>exposed</th><th>idle</th></tr>\n");
        for (Point p : points) {
            sb.append("<tr><td>").append(p.id()).append("</td><td class=\"l\">").append(Html.esc(p.time()))
                    .append("</td><td class=\"l\">").append(Html.esc(p.commit() == null ? "-" : p.commit()))
                    .append("</td><td class=\"l\">").append(Html.esc(p.branch() == null ? "-" : p.branch()))
                    .append("</td><td class=\"l\">").append(p.passed() ? "yes" : "no").append("</td><td>")
                    .append(Units.ms(p.stepNs())).append("</td><td>").append(Units.ms(p.tailNs())).append("</td><td>")
                    .append(Units.ms(p.exposedNs())).append("</td><td>").append(Units.ms(p.idleNs()))
                    .append("</td></tr>\n");
        }
        sb.append("</table></div>\n</body></html>\n");
        out.write(sb.toString());
        out.flush();
    }

    /** One metric's line over the runs; a failed run's dot is hollow. */
    private static void chart(StringBuilder sb, String heading, String key, List<Point> points,
                              java.util.function.Function<Point, Long> value) {
        int n = points.size();
        long max = 0;
        for (Point p : points) {
            Long v = value.apply(p);
            if (v != null) {
                max = Math.max(max, v);
            }
        }
        AxisScale axis = AxisScale.of(max, AxisScale.MICROSECOND, MAX_INTERVALS);
        long top = axis.top();
        double slot = PLOT / Math.max(1, n);
        double base = TOP + HEIGHT;
        double width = GUTTER + PLOT + 28;
        double height = base + 22;
        sb.append("<h2>").append(heading).append("</h2>\n<svg class=\"history ").append(key).append("\" width=\"")
                .append(Html.num(width)).append("\" height=\"").append(Html.num(height)).append("\" viewBox=\"0 0 ")
                .append(Html.num(width)).append(' ').append(Html.num(height)).append("\" role=\"img\" aria-label=\"")
                .append(heading).append(" per run (median, ms)\" data-runs=\"").append(n)
                .append("\" data-axis-top-ns=\"").append(top).append("\">");
        for (int g = 0; g <= axis.intervals(); g++) {
            double y = base - HEIGHT * g / axis.intervals();
            sb.append("<path class=\"grid\" d=\"M").append(Html.num(GUTTER)).append(' ').append(Html.num(y))
                    .append('h').append(Html.num(PLOT)).append("\"/><text class=\"axt\" x=\"")
                    .append(Html.num(GUTTER - 4)).append("\" y=\"").append(Html.num(y + 4))
                    .append("\" text-anchor=\"end\">").append(Units.ms(axis.step() * g)).append("</text>");
        }
        sb.append("<text class=\"axt\" x=\"4\" y=\"").append(Html.num(TOP + 8)).append("\">ms</text>");
        // The line, broken where a run has no value.
        sb.append("<path class=\"line\" d=\"");
        boolean pen = false;
        for (int i = 0; i < n; i++) {
            Long v = value.apply(points.get(i));
            if (v == null) {
                pen = false;
                continue;
            }
            sb.append(pen ? 'L' : 'M');
            Html.num(sb, GUTTER + (i + 0.5) * slot).append(' ');
            Html.num(sb, base - HEIGHT * v / top);
            pen = true;
        }
        sb.append("\"/>");
        if (n <= 200) {
            for (int i = 0; i < n; i++) {
                Point p = points.get(i);
                Long v = value.apply(p);
                if (v == null) {
                    continue;
                }
                sb.append("<circle class=\"dot\" r=\"2.5\"").append(p.passed() ? "" : " style=\"fill:#fff;stroke:#e15759\"")
                        .append(" cx=\"").append(Html.num(GUTTER + (i + 0.5) * slot)).append("\" cy=\"")
                        .append(Html.num(base - HEIGHT * v / top)).append("\" data-run=\"").append(p.id())
                        .append("\" data-ns=\"").append(v).append("\"><title>run ").append(p.id()).append(' ')
                        .append(Html.esc(p.commit() == null ? "" : shortCommit(p.commit()))).append(": ")
                        .append(Units.ms(v)).append(" ms").append(p.passed() ? "" : " (failed)")
                        .append("</title></circle>");
            }
        }
        if (n > 0) {
            sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER)).append("\" y=\"")
                    .append(Html.num(base + 16)).append("\">run ").append(points.get(0).id()).append("</text>");
            sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER + PLOT)).append("\" y=\"")
                    .append(Html.num(base + 16)).append("\" text-anchor=\"end\">run ").append(points.get(n - 1).id())
                    .append("</text>");
        }
        sb.append("</svg>\n");
    }

    private static String shortCommit(String c) {
        return c.length() > 12 ? c.substring(0, 12) : c;
    }
}
