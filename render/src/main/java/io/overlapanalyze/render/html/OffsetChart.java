package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Clock offsets as a small SVG bar chart: one bar per rank around a zero line (up: the rank's
 * clock runs ahead of the mean clock). More ranks than {@link CrossRankReportSection#MAX_BARS}
 * are binned, a bin showing the offset of largest magnitude.
 */
final class OffsetChart {
    private static final double PLOT = 1000;
    private static final double GUTTER = 92;
    private static final double HALF = 40;
    private static final double TOP = 8;

    private OffsetChart() {
    }

    static String render(Map<Integer, Long> offsets) {
        List<Integer> ranks = new ArrayList<>(offsets.keySet());
        List<Long> values = new ArrayList<>(offsets.values());
        int all = ranks.size();
        int bars = Math.min(all, CrossRankReportSection.MAX_BARS);
        long[] v = new long[bars];
        long maxAbs = 1;
        for (int b = 0; b < bars; b++) {
            int i0 = (int) ((long) b * all / bars);
            int i1 = Math.max(i0 + 1, (int) ((long) (b + 1) * all / bars));
            long pick = 0;
            for (int i = i0; i < i1; i++) {
                if (Math.abs(values.get(i)) >= Math.abs(pick)) {
                    pick = values.get(i);
                }
            }
            v[b] = pick;
            maxAbs = Math.max(maxAbs, Math.abs(pick));
        }
        double zero = TOP + HALF;
        double slot = PLOT / Math.max(1, bars);
        double barW = Math.max(0.8, Math.min(40, slot * 0.7));
        double width = GUTTER + PLOT + 28;
        double height = TOP + 2 * HALF + 22;
        StringBuilder sb = new StringBuilder(512 + bars * 24);
        sb.append("<svg class=\"offsets\" width=\"").append(Html.num(width)).append("\" height=\"")
                .append(Html.num(height)).append("\" viewBox=\"0 0 ").append(Html.num(width)).append(' ')
                .append(Html.num(height)).append("\" role=\"img\" aria-label=\"clock offset per rank\" data-ranks=\"")
                .append(all).append("\" data-bars=\"").append(bars).append("\">");
        StringBuilder up = new StringBuilder();
        StringBuilder down = new StringBuilder();
        for (int b = 0; b < bars; b++) {
            double h = HALF * Math.abs(v[b]) / maxAbs;
            if (h == 0) {
                continue;
            }
            StringBuilder p = v[b] > 0 ? up : down;
            p.append('M');
            Html.num(p, GUTTER + b * slot + (slot - barW) / 2).append(' ');
            Html.num(p, v[b] > 0 ? zero - h : zero).append('h');
            Html.num(p, barW).append('v');
            Html.num(p, h).append('h');
            Html.num(p, -barW).append('z');
        }
        if (up.length() > 0) {
            sb.append("<path class=\"ofs-up\" d=\"").append(up).append("\"/>");
        }
        if (down.length() > 0) {
            sb.append("<path class=\"ofs-down\" d=\"").append(down).append("\"/>");
        }
        sb.append("<path class=\"ax\" d=\"M").append(Html.num(GUTTER)).append(' ').append(Html.num(zero)).append('h')
                .append(Html.num(PLOT)).append("\"/>");
        String top = Units.signedUs(maxAbs);
        String bottom = Units.signedUs(-maxAbs);
        axisText(sb, GUTTER - 4, TOP + 8, "end", top);
        axisText(sb, GUTTER - 4, zero + 4, "end", "0");
        axisText(sb, GUTTER - 4, zero + HALF, "end", bottom);
        double base = zero + HALF + 16;
        if (all > 0) {
            axisText(sb, GUTTER + slot / 2, base, "middle", "rank " + ranks.get(0));
            if (all > 1) {
                axisText(sb, GUTTER + PLOT - slot / 2, base, "middle", "rank " + ranks.get(all - 1));
            }
        }
        if (bars < all) {
            axisText(sb, GUTTER + PLOT / 2, base, "middle", all + " ranks in " + bars
                    + " bars, each the largest offset of its bin");
        }
        return sb.append("</svg>").toString();
    }

    private static void axisText(StringBuilder sb, double x, double y, String anchor, String text) {
        sb.append("<text class=\"axt\" x=\"").append(Html.num(x)).append("\" y=\"").append(Html.num(y))
                .append("\" text-anchor=\"").append(anchor).append("\">").append(Html.esc(text)).append("</text>");
    }
}
