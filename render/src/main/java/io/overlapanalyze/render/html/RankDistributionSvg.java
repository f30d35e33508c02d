package io.overlapanalyze.render.html;

import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.RankRow;
import io.overlapanalyze.render.units.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The job overview's picture of the ranks: three aligned bar strips over the ranks sorted by median
 * step period (longest left), so the shape of the distribution reads at a glance at 8 ranks as at
 * 1,024: the median step period (with the median and p90 across ranks drawn and labelled), the
 * idle share of the step period, and the exposed communication as a share of the step period.
 * Stragglers and ranks a cross-rank ERROR names are coloured and marked under the first strip,
 * the first few with their rank id.
 *
 * <p>More ranks than {@link #MAX_BARS} are binned in that order, a bin showing its largest values
 * and marked when any of its ranks is: the page stays the same size for any job. The drawing
 * scales with the page ({@code viewBox}; the style sheet makes every SVG at most the page wide).
 */
final class RankDistributionSvg {
    static final int MAX_BARS = 500;
    /** Rank ids written under the marks; more marks are drawn without a label. */
    static final int MAX_MARK_LABELS = 12;
    private static final double PERIOD_H = 120;
    private static final double SHARE_H = 56;
    private static final double GAP = 40;

    /**
     * One drawing's proportions. A page has two: {@link #WIDE} for screens from a tablet up, and
     * {@link #NARROW}, drawn about as many units wide as a phone has pixels so its text stays
     * readable there; the style sheet shows one of them ({@code svg.wide} / {@code svg.narrow}).
     *
     * @param cls         the SVG's class besides {@code ranksdist}
     * @param plot        width of the bars' area
     * @param gutter      room for the axis labels on the left
     * @param right       room right of the plot, for the median and p90 labels when wide enough
     * @param maxBars     more ranks are binned into this many bars
     * @param valuesUpTo  up to this many bars each carry their value
     * @param compact     short captions
     */
    record Geometry(String cls, double plot, double gutter, double right, int maxBars, int valuesUpTo,
                    boolean compact) {
        /** Room for "median 8.400 ms" right of the plot; else the values go above it. */
        boolean labelsRight() {
            return right >= 60;
        }
    }

    static final Geometry WIDE = new Geometry("wide", 1000, 92, 120, MAX_BARS, 16, false);
    static final Geometry NARROW = new Geometry("narrow", 300, 48, 8, 150, 6, true);

    private final Geometry g;
    private final double plot;
    private final double gutter;

    private RankDistributionSvg(Geometry g) {
        this.g = g;
        this.plot = g.plot();
        this.gutter = g.gutter();
    }

    /** Both drawings (the style sheet shows one), or {@code null} when no rank has a step period. */
    static String render(JobOverview o) {
        String wide = new RankDistributionSvg(WIDE).draw(o);
        return wide == null ? null : wide + new RankDistributionSvg(NARROW).draw(o);
    }

    /** The ranks with a median step period, longest first (ties by rank): the bars' order. */
    static List<RankRow> order(JobOverview o) {
        return o.rows().stream().filter(r -> r.periodNs() != null)
                .sorted(Comparator.comparing(RankRow::periodNs, Comparator.reverseOrder())
                        .thenComparingInt(RankRow::rank))
                .toList();
    }

    /** The picture, or {@code null} when no rank has a step period. */
    String draw(JobOverview o) {
        List<RankRow> ranks = order(o);
        if (ranks.isEmpty() || o.stepTime() == null) {
            return null;
        }
        int n = ranks.size();
        int bars = Math.min(n, g.maxBars());
        long[] period = new long[bars];
        double[] idle = new double[bars];
        double[] exposed = new double[bars];
        boolean[] idleKnown = new boolean[bars];
        boolean[] exposedKnown = new boolean[bars];
        int[] mark = new int[bars]; // 0 none, 1 straggler, 2 error (an error wins)
        int[] firstRank = new int[bars];
        for (int b = 0; b < bars; b++) {
            int i0 = (int) ((long) b * n / bars);
            int i1 = Math.max(i0 + 1, (int) ((long) (b + 1) * n / bars));
            firstRank[b] = ranks.get(i0).rank();
            for (int i = i0; i < i1; i++) {
                RankRow r = ranks.get(i);
                period[b] = Math.max(period[b], r.periodNs());
                if (r.idleShare() != null) {
                    idle[b] = Math.max(idle[b], r.idleShare());
                    idleKnown[b] = true;
                }
                Double x = exposedShare(r);
                if (x != null) {
                    exposed[b] = Math.max(exposed[b], x);
                    exposedKnown[b] = true;
                }
                mark[b] = Math.max(mark[b], r.error() ? 2 : r.straggler() ? 1 : 0);
            }
        }
        long max = period[0];
        AxisScale axis = AxisScale.of(Math.max(1, max), AxisScale.MICROSECOND, 4);
        long top = axis.step() * axis.intervals();
        double slot = plot / bars;
        double barW = Math.max(slot * 0.82, Math.min(slot, 1));
        double periodTop = 34;
        double periodBase = periodTop + PERIOD_H;
        double idleTop = periodBase + GAP + 12;
        double idleBase = idleTop + SHARE_H;
        double exposedTop = idleBase + GAP;
        double exposedBase = exposedTop + SHARE_H;
        List<String> captions = new ArrayList<>();
        String ranksCaption = n + (n == 1 ? " rank" : " ranks") + " by median step period, longest left";
        String binned = bars < n ? "binned into " + bars + " bars, each the largest of its ranks" : null;
        if (g.compact()) {
            captions.add(ranksCaption);
            if (binned != null) {
                captions.add(binned);
            }
        } else {
            captions.add(ranksCaption + (binned == null ? "" : "; " + binned));
        }
        String markedCaption = markedCaption(o, g.compact() ? 3 : MAX_MARK_LABELS);
        if (markedCaption != null) {
            captions.add(markedCaption);
        }
        double height = exposedBase + 16 + 14 * captions.size() + 8;
        double width = gutter + plot + g.right();

        StringBuilder sb = new StringBuilder(2048 + bars * 60);
        sb.append("<svg class=\"ranksdist ").append(g.cls()).append("\" width=\"").append(Html.num(width)).append("\" height=\"")
                .append(Html.num(height)).append("\" viewBox=\"0 0 ").append(Html.num(width)).append(' ')
                .append(Html.num(height)).append("\" role=\"img\" aria-label=\"median step period, idle share and "
                        + "exposed communication share per rank, ranks sorted by step period\" data-ranks=\"")
                .append(n).append("\" data-bars=\"").append(bars).append("\" data-axis-top-ns=\"").append(top)
                .append('"');
        if (bars == n) {
            sb.append(" data-order=\"");
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ",").append(ranks.get(i).rank());
            }
            sb.append('"');
        }
        sb.append('>');

        // Strip 1: the median step period, axis in ms, the job's median and p90 as labelled lines.
        title(sb, periodTop - 20, g.compact() ? "median step period (ms), longest left"
                : "median step period per rank (ms), longest left");
        for (int i = 0; i <= axis.intervals(); i++) {
            double y = periodBase - PERIOD_H * i / axis.intervals();
            line(sb, "grid", gutter, y, gutter + plot, y);
            text(sb, "axt", gutter - 6, y + 4, "end", Units.ms(axis.step() * i));
        }
        StringBuilder[] periodPaths = {new StringBuilder(), new StringBuilder(), new StringBuilder()};
        for (int b = 0; b < bars; b++) {
            bar(periodPaths[mark[b]], gutter + b * slot, barW, periodBase, PERIOD_H * period[b] / top);
        }
        String[] periodClass = {"pb", "pb st", "pb er"};
        for (int k = 0; k < 3; k++) {
            if (periodPaths[k].length() > 0) {
                sb.append("<path class=\"").append(periodClass[k]).append("\" d=\"").append(periodPaths[k])
                        .append("\"/>");
            }
        }
        JobOverview.Spread s = o.stepTime();
        String p90 = "p90 " + Units.msUnit(s.p90Ns());
        String median = "median " + Units.msUnit(s.medianNs());
        refLine(sb, "ref-p90", periodBase - PERIOD_H * s.p90Ns() / top, s.p90Ns(), g.labelsRight() ? p90 : null, -2);
        refLine(sb, "ref-median", periodBase - PERIOD_H * s.medianNs() / top, s.medianNs(),
                g.labelsRight() ? median : null, 11);
        if (!g.labelsRight()) {
            text(sb, "refl", gutter, periodTop - 6, "start", "dashed: " + median + ", " + p90);
        }
        if (bars <= g.valuesUpTo() * 2) {
            // Few bars: each carries its value.
            for (int b = 0; b < bars; b++) {
                text(sb, "val", gutter + b * slot + barW / 2, periodBase - PERIOD_H * period[b] / top - 3, "middle",
                        bars <= g.valuesUpTo() ? Units.ms(period[b]) : shortMs(period[b]));
            }
        }
        marks(sb, ranks, n, bars, slot, barW, mark, firstRank, periodBase);

        // Strips 2 and 3: shares of the step period, 0 to 100 %.
        share(sb, g.compact() ? "idle, % of the step period" : "idle share of the step period (%)", "ib", idleTop,
                idle, idleKnown, slot, barW);
        share(sb, g.compact() ? "exposed comm, % of the step period" : "exposed communication, share of the step "
                + "period (%)", "xb", exposedTop, exposed, exposedKnown, slot, barW);

        double base = exposedBase + 16;
        text(sb, "axt", gutter, base, "start", "rank " + firstRank[0]);
        text(sb, "axt", gutter + plot, base, "end", "rank " + ranks.get(n - 1).rank());
        for (int i = 0; i < captions.size(); i++) {
            text(sb, i == captions.size() - 1 && markedCaption != null ? "mkc" : "axt", gutter + plot / 2,
                    base + 14 * (i + 1), "middle", captions.get(i));
        }
        sb.append("</svg>");
        return sb.toString();
    }

    /**
     * "▲ 3 ERROR, 700 straggler": the marked ranks in the overview's order (worst first), the first
     * {@code max}, then how many more; {@code null} when none is marked. Marks of neighbouring bars
     * can share a label's room; this line names them all the same.
     */
    private static String markedCaption(JobOverview o, int max) {
        List<RankRow> marked = o.rows().stream().filter(r -> r.error() || r.straggler()).toList();
        if (marked.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder("▲ ");
        for (int i = 0; i < Math.min(max, marked.size()); i++) {
            RankRow r = marked.get(i);
            b.append(i == 0 ? "" : ", ").append(r.rank()).append(r.error() ? " ERROR" : " straggler");
        }
        if (marked.size() > max) {
            b.append(", +").append(marked.size() - max).append(" more");
        }
        return b.toString();
    }

    /** Median exposed communication over median step period; {@code null} when either is unknown. */
    static Double exposedShare(RankRow r) {
        if (r.exposedCommNs() == null || r.periodNs() == null || r.periodNs() <= 0) {
            return null;
        }
        return Math.min(1.0, (double) r.exposedCommNs() / r.periodNs());
    }

    private void marks(StringBuilder sb, List<RankRow> ranks, int n, int bars, double slot, double barW,
                              int[] mark, int[] firstRank, double periodBase) {
        StringBuilder tri = new StringBuilder();
        List<String> labels = new ArrayList<>();
        double lastLabelEnd = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < bars; b++) {
            if (mark[b] == 0) {
                continue;
            }
            double cx = gutter + b * slot + barW / 2;
            tri.append('M');
            Html.num(tri, cx).append(' ');
            Html.num(tri, periodBase + 3).append("l4 7h-8z");
            // The marked rank of the bin (the first marked one), labelled where there is room.
            // The bin's first marked rank, "+k" when the bin holds k more.
            int rank = firstRank[b];
            int marked = 0;
            int i0 = (int) ((long) b * n / bars);
            int i1 = Math.max(i0 + 1, (int) ((long) (b + 1) * n / bars));
            for (int i = i0; i < i1; i++) {
                if (ranks.get(i).error() || ranks.get(i).straggler()) {
                    if (marked++ == 0) {
                        rank = ranks.get(i).rank();
                    }
                }
            }
            String label = rank + (marked > 1 ? " +" + (marked - 1) : "");
            if (labels.size() < MAX_MARK_LABELS && cx - label.length() * 3.3 > lastLabelEnd + 2) {
                labels.add(label);
                text(sb, "mkl", cx, periodBase + 20, "middle", label);
                lastLabelEnd = cx + label.length() * 3.3;
            }
        }
        if (tri.length() > 0) {
            sb.append("<path class=\"mark\" d=\"").append(tri).append("\"/>");
        }
    }

    private void share(StringBuilder sb, String caption, String cls, double stripTop, double[] values,
                              boolean[] known, double slot, double barW) {
        title(sb, stripTop - 16, caption);
        double base = stripTop + SHARE_H;
        for (int pct : new int[] {0, 50, 100}) {
            double y = base - SHARE_H * pct / 100.0;
            line(sb, "grid", gutter, y, gutter + plot, y);
            text(sb, "axt", gutter - 6, y + 4, "end", pct + " %");
        }
        StringBuilder p = new StringBuilder();
        StringBuilder unknown = new StringBuilder();
        for (int b = 0; b < values.length; b++) {
            if (known[b]) {
                bar(p, gutter + b * slot, barW, base, SHARE_H * values[b]);
            } else {
                bar(unknown, gutter + b * slot, barW, base, 3);
            }
        }
        if (p.length() > 0) {
            sb.append("<path class=\"").append(cls).append("\" d=\"").append(p).append("\"/>");
        }
        if (unknown.length() > 0) {
            sb.append("<path class=\"na\" d=\"").append(unknown).append("\"><title>not known</title></path>");
        }
        if (values.length <= g.valuesUpTo()) {
            for (int b = 0; b < values.length; b++) {
                if (known[b]) {
                    text(sb, "val", gutter + b * slot + barW / 2, base - SHARE_H * values[b] - 3, "middle",
                            Units.pct(values[b]));
                }
            }
        }
    }

    private void refLine(StringBuilder sb, String cls, double y, long ns, String label, double dy) {
        sb.append("<g class=\"").append(cls).append("\" data-ns=\"").append(ns).append("\">");
        line(sb, "ref", gutter, y, gutter + plot, y);
        if (label != null) {
            text(sb, "refl", gutter + plot + 4, y + dy, "start", label);
        }
        sb.append("</g>");
    }

    private static String shortMs(long ns) {
        String ms = Units.ms(ns);
        int dot = ms.indexOf('.');
        return dot < 0 ? ms : ms.substring(0, Math.min(ms.length(), dot + 2));
    }

    private static void bar(StringBuilder p, double x, double w, double base, double h) {
        if (h <= 0) {
            return;
        }
        p.append('M');
        Html.num(p, x).append(' ');
        Html.num(p, base - h).append('h');
        Html.num(p, w).append('v');
        Html.num(p, h).append('h');
        Html.num(p, -w).append('z');
    }

    private void title(StringBuilder sb, double y, String caption) {
        text(sb, "lab", gutter, y, "start", caption);
    }

    private static void line(StringBuilder sb, String cls, double x1, double y1, double x2, double y2) {
        sb.append("<line class=\"").append(cls).append("\" x1=\"").append(Html.num(x1)).append("\" y1=\"")
                .append(Html.num(y1)).append("\" x2=\"").append(Html.num(x2)).append("\" y2=\"").append(Html.num(y2))
                .append("\"/>");
    }

    private static void text(StringBuilder sb, String cls, double x, double y, String anchor, String s) {
        sb.append("<text class=\"").append(cls).append("\" x=\"").append(Html.num(x)).append("\" y=\"")
                .append(Html.num(y)).append("\" text-anchor=\"").append(anchor).append("\">").append(Html.esc(s))
                .append("</text>");
    }
}
