package io.overlapanalyze.render.html;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.render.timeline.MarkerPoints;
import io.overlapanalyze.render.timeline.PixelRuns;
import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;

/**
 * One step as an SVG timeline: the four marker labels on top, the lanes (compute, comm, memcpy
 * when there is any) with exposed communication in red and the tail shaded across them, the
 * attribution chain below (one box per link, arrows to what each link waited for), and a time
 * axis in ms after the step's first device start.
 *
 * <p>Each lane is one {@code <path>} of pixel-merged runs ({@link PixelRuns}), so a step with a
 * hundred thousand kernels costs about as much as one with ten. Elements carry the exact values
 * as data attributes ({@code data-ns} on markers, {@code data-start-ns}/{@code data-end-ns} on the
 * tail and links) so tests and scripts need not read pixels.
 */
final class TimelineSvg {
    static final double PLOT = 1000;
    static final double GUTTER = 92;
    private static final double RIGHT = 28;
    private static final double LABEL_ROW = 13;
    private static final double LANE = 18;
    private static final double LANE_GAP = 6;
    private static final double CHAIN_ROW = 20;
    /** Gaps under half a pixel are closed: invisible anyway, and they would multiply the runs. */
    private static final double MIN_GAP_PX = 0.5;
    /** Runs are drawn at least this wide so a lone short kernel stays visible. */
    private static final double MIN_RUN_PX = 0.6;

    private final StepTimeline t;
    private final StepReport s;
    private final StringBuilder sb = new StringBuilder(2048);

    private TimelineSvg(StepTimeline t) {
        this.t = t;
        this.s = t.step();
    }

    static String render(StepTimeline t) {
        return new TimelineSvg(t).draw();
    }

    private double x(long ns) {
        double rel = (double) (ns - t.startNs()) / t.spanNs();
        return GUTTER + Math.max(0, Math.min(1, rel)) * PLOT;
    }

    private String draw() {
        List<MarkerPoints.Point> markers = MarkerPoints.of(s.markers());
        double lanesTop = 6 + markers.size() * LABEL_ROW + 4;
        List<String> laneNames = new ArrayList<>(List.of("compute", "comm"));
        if (!t.fused().isEmpty()) {
            laneNames.add("fused");
        }
        if (!t.memory().isEmpty()) {
            laneNames.add("memcpy");
        }
        double lanesBottom = lanesTop + laneNames.size() * (LANE + LANE_GAP) - LANE_GAP;
        List<ChainLink> chain = s.attribution().chain();
        int[] chainRow = chainRows(chain);
        int chainRows = 0;
        for (int r : chainRow) {
            chainRows = Math.max(chainRows, r + 1);
        }
        boolean hasTail = s.tailNs() != null && s.tailNs() > 0 && s.markers().lastComputeEndNs() != null
                && s.markers().lastReduceEndNs() != null;
        double tailLabelY = lanesBottom + 13;
        double chainTop = lanesBottom + (hasTail ? 20 : 6) + (chain.isEmpty() ? 0 : 14);
        double axisY = chainTop + chainRows * CHAIN_ROW + 6;
        double height = axisY + 22;
        double width = GUTTER + PLOT + RIGHT;

        // No xmlns: inline SVG in HTML needs none, and the page must name no network address at all.
        sb.append("<svg class=\"timeline\" width=\"").append(Html.num(width))
                .append("\" height=\"").append(Html.num(height)).append("\" viewBox=\"0 0 ").append(Html.num(width))
                .append(' ').append(Html.num(height)).append("\" role=\"img\" aria-label=\"")
                .append(Html.esc("timeline of " + s.name() + ", rank " + t.rank().rank())).append("\">");
        for (int i = 0; i < laneNames.size(); i++) {
            double y = lanesTop + i * (LANE + LANE_GAP);
            String name = laneNames.get(i);
            sb.append("<text class=\"lab\" x=\"4\" y=\"").append(Html.num(y + LANE - 5)).append("\">").append(name)
                    .append("</text>");
            rect("bg", GUTTER, y, PLOT, LANE);
            switch (name) {
                case "compute" -> lane("k", "compute", t.compute(), y);
                case "comm" -> {
                    lane("c", "comm", t.comm(), y);
                    lane("x", "exposed", t.exposed(), y);
                }
                case "fused" -> lane("f", "fused", t.fused(), y);
                default -> lane("m", "memcpy", t.memory(), y);
            }
        }
        if (hasTail) {
            // Over the lanes, translucent: the tail is a span of time across all of them.
            tail(lanesTop - 2, lanesBottom + 2, tailLabelY);
        }
        markers(markers, lanesBottom);
        chain(chain, chainRow, chainTop, lanesTop);
        axis(axisY, lanesTop);
        sb.append("</svg>");
        return sb.toString();
    }

    private void lane(String cls, String lane, IntervalSet set, double y) {
        PixelRuns runs = PixelRuns.of(set, t.startNs(), t.spanNs(), PLOT, MIN_GAP_PX);
        sb.append("<path class=\"").append(cls).append("\" data-lane=\"").append(lane).append("\" data-runs=\"")
                .append(runs.size()).append("\" data-ns=\"").append(set.length()).append("\" d=\"");
        for (int i = 0; i < runs.size(); i++) {
            double w = Math.max(MIN_RUN_PX, runs.end(i) - runs.start(i));
            sb.append('M');
            Html.num(sb, GUTTER + runs.start(i)).append(' ');
            Html.num(sb, y).append('h');
            Html.num(sb, w).append('v').append(Html.num(LANE)).append('h');
            Html.num(sb, -w).append('z');
        }
        sb.append("\"><title>").append(lane).append(": ").append(Units.ms(set.length())).append(" ms</title></path>");
    }

    private void tail(double top, double bottom, double labelY) {
        long c = s.markers().lastComputeEndNs();
        long e = s.markers().lastReduceEndNs();
        double x0 = x(c);
        double x1 = x(e);
        sb.append("<g class=\"tailg\" data-start-ns=\"").append(c).append("\" data-end-ns=\"").append(e).append("\">");
        sb.append("<rect class=\"tail\" x=\"").append(Html.num(x0)).append("\" y=\"").append(Html.num(top))
                .append("\" width=\"").append(Html.num(Math.max(1, x1 - x0))).append("\" height=\"")
                .append(Html.num(bottom - top)).append("\"/>");
        String label = "tail " + Units.ms(s.tailNs()) + " ms, " + s.attribution().kind();
        boolean right = x1 - x0 < 160 && x0 > GUTTER + PLOT / 2;
        sb.append("<text class=\"lab\" x=\"").append(Html.num(right ? x1 : x0 + 2)).append("\" y=\"")
                .append(Html.num(labelY)).append('"').append(right ? " text-anchor=\"end\"" : "").append('>')
                .append(Html.esc(label)).append("</text>");
        sb.append("<title>").append(Html.esc(label)).append(" (last compute end to last reduce end)</title></g>");
    }

    /** Dashed vertical lines, each labelled on its own row so coinciding markers stay readable. */
    private void markers(List<MarkerPoints.Point> points, double bottom) {
        for (int i = 0; i < points.size(); i++) {
            MarkerPoints.Point p = points.get(i);
            double px = x(p.ns());
            double labelY = 6 + (i + 1) * LABEL_ROW - 3;
            boolean end = px > GUTTER + PLOT - 200;
            String label = p.label() + " " + Units.rel(p.ns(), t.startNs());
            sb.append("<g class=\"mk\" data-marker=\"").append(p.key()).append("\" data-ns=\"").append(p.ns())
                    .append("\"><line x1=\"").append(Html.num(px)).append("\" x2=\"").append(Html.num(px))
                    .append("\" y1=\"").append(Html.num(labelY + 2)).append("\" y2=\"").append(Html.num(bottom + 2))
                    .append("\"/><text x=\"").append(Html.num(end ? px - 3 : px + 3)).append("\" y=\"")
                    .append(Html.num(labelY)).append('"').append(end ? " text-anchor=\"end\"" : "").append('>')
                    .append(Html.esc(label)).append(" ms</text></g>");
        }
    }

    /** Rows for the links: a link goes on the first row where it overlaps no earlier link. */
    private static int[] chainRows(List<ChainLink> chain) {
        int[] row = new int[chain.size()];
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < chain.size(); i++) {
            ChainLink l = chain.get(i);
            int r = 0;
            while (r < rows.size() && overlapsAny(rows.get(r), l)) {
                r++;
            }
            if (r == rows.size()) {
                rows.add(new long[0]);
            }
            long[] spans = rows.get(r);
            long[] grown = java.util.Arrays.copyOf(spans, spans.length + 2);
            grown[spans.length] = l.startNs();
            grown[spans.length + 1] = l.endNs();
            rows.set(r, grown);
            row[i] = r;
        }
        return row;
    }

    private static boolean overlapsAny(long[] spans, ChainLink l) {
        for (int i = 0; i < spans.length; i += 2) {
            if (l.startNs() < spans[i + 1] && spans[i] < l.endNs()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The chain, last collective first: a box per link labelled with its position and what bound
     * it; an arrow from a QUEUE link back to the link it queued behind, from the data-ready time
     * on the compute lane to a DATA link, and from the host enqueue time to a LAUNCH link.
     */
    private void chain(List<ChainLink> chain, int[] rows, double top, double lanesTop) {
        if (chain.isEmpty()) {
            return;
        }
        sb.append("<text class=\"lab\" x=\"4\" y=\"").append(Html.num(top + 13)).append("\">why (chain)</text>");
        double computeBottom = lanesTop + LANE;
        for (int i = 0; i < chain.size(); i++) {
            ChainLink l = chain.get(i);
            double y = top + rows[i] * CHAIN_ROW;
            double x0 = x(l.startNs());
            double x1 = x(l.endNs());
            double w = Math.max(2, x1 - x0);
            String text = (i + 1) + " " + l.type() + " " + l.boundBy();
            sb.append("<g class=\"link\" data-link=\"").append(i + 1).append("\" data-bound-by=\"").append(l.boundBy())
                    .append("\" data-start-ns=\"").append(l.startNs()).append("\" data-end-ns=\"").append(l.endNs())
                    .append("\">");
            rect(null, x0, y + 2, w, CHAIN_ROW - 5);
            if (w > 7 * text.length()) {
                sb.append("<text x=\"").append(Html.num(x0 + 4)).append("\" y=\"").append(Html.num(y + 13))
                        .append("\">").append(Html.esc(text)).append("</text>");
            }
            sb.append("<title>").append(Html.esc(linkTitle(i + 1, l))).append("</title></g>");
            if (l.boundBy() == BoundBy.QUEUE && i + 1 < chain.size()) {
                ChainLink prev = chain.get(i + 1);
                double py = top + rows[i + 1] * CHAIN_ROW + CHAIN_ROW / 2;
                double cy = y + CHAIN_ROW / 2;
                double px = x(prev.endNs());
                // A hook above the boxes from this link's start to the end of the one it queued behind.
                arrow("M" + Html.num(x0 + 1) + " " + Html.num(cy - 6) + "Q" + Html.num((x0 + px) / 2) + " "
                        + Html.num(Math.min(cy, py) - 16) + " " + Html.num(px - 4) + " " + Html.num(py - 6));
            } else if (l.boundBy() == BoundBy.DATA && l.dataReadyNs() != null) {
                double dx = x(l.dataReadyNs());
                arrow("M" + Html.num(dx) + " " + Html.num(computeBottom) + "L" + Html.num(dx) + " " + Html.num(y + 1));
            } else if (l.boundBy() == BoundBy.LAUNCH && l.enqueueNs() != null) {
                double ex = x(l.enqueueNs());
                arrow("M" + Html.num(ex) + " " + Html.num(lanesTop - 4) + "L" + Html.num(ex) + " " + Html.num(y + 1));
            }
        }
    }

    private String linkTitle(int n, ChainLink l) {
        StringBuilder b = new StringBuilder();
        b.append(n).append(". ").append(l.type()).append(' ').append(Units.bytes(l.bytes())).append(" [")
                .append(Units.rel(l.startNs(), t.startNs())).append(", ").append(Units.rel(l.endNs(), t.startNs()))
                .append("] ms, bound by ").append(l.boundBy());
        if (l.dataReadyNs() != null) {
            b.append("; data ready ").append(Units.rel(l.dataReadyNs(), t.startNs()));
        }
        if (l.enqueueNs() != null) {
            b.append("; enqueued ").append(Units.rel(l.enqueueNs(), t.startNs()));
        }
        if (l.queueFreeNs() != null) {
            b.append("; lane free ").append(Units.rel(l.queueFreeNs(), t.startNs()));
        }
        return b.toString();
    }

    /**
     * The arrow head, defined once per page ({@link HtmlRenderer} writes it at the top, outside every
     * collapsible block: a marker inside a closed {@code <details>} would not render elsewhere).
     */
    static final String ARROW_DEFS = "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\">"
            + "<defs><marker id=\"ah\" viewBox=\"0 0 6 6\" refX=\"5\" refY=\"3\" markerWidth=\"6\" "
            + "markerHeight=\"6\" orient=\"auto\"><path d=\"M0 0L6 3L0 6z\"/></marker></defs></svg>";

    private void arrow(String d) {
        sb.append("<path class=\"arrow\" marker-end=\"url(#ah)\" d=\"").append(d).append("\"/>");
    }

    /** Ticks at a 1-2-5 step giving about eight labels, in ms after the step start. */
    private void axis(double y, double lanesTop) {
        long span = t.spanNs();
        long tick = AxisScale.niceStep(span / 8.0);
        sb.append("<path class=\"ax\" d=\"M").append(Html.num(GUTTER)).append(' ').append(Html.num(y)).append('h')
                .append(Html.num(PLOT));
        for (long v = 0; v <= span; v += tick) {
            sb.append('M').append(Html.num(x(t.startNs() + v))).append(' ').append(Html.num(y)).append("v4");
        }
        sb.append("\"/>");
        for (long v = 0; v <= span; v += tick) {
            double px = x(t.startNs() + v);
            sb.append("<text class=\"axt\" x=\"").append(Html.num(px)).append("\" y=\"").append(Html.num(y + 15))
                    .append("\" text-anchor=\"middle\">").append(Units.ms(v)).append("</text>");
        }
        sb.append("<text class=\"axt\" x=\"4\" y=\"").append(Html.num(y + 15)).append("\">ms</text>");
    }

    private void rect(String cls, double x, double y, double w, double h) {
        sb.append("<rect");
        if (cls != null) {
            sb.append(" class=\"").append(cls).append('"');
        }
        sb.append(" x=\"").append(Html.num(x)).append("\" y=\"").append(Html.num(y)).append("\" width=\"")
                .append(Html.num(w)).append("\" height=\"").append(Html.num(h)).append("\"/>");
    }
}
