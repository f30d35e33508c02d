package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;

import java.util.List;

/**
 * A rows × columns heatmap (rank × step tail and exposed communication, rank × collective wait)
 * as SVG. Values are quantised to eight shades (0 has its own) and each shade is one
 * {@code <path>} (neighbours of one shade in a row merged into one rectangle), so 64 × 50 cells
 * cost a few kilobytes; more rows or columns than fit are binned, a bin showing its largest value
 * (the straggler is what one looks for).
 */
final class Heatmap {
    static final int MAX_ROWS = 128;
    static final int MAX_COLS = 200;
    private static final double PLOT = 1000;
    private static final double GUTTER = 92;
    private static final int SHADES = 8;
    /** Room under the plot for the colour scale. */
    private static final double LEGEND_H = 40;
    /** A cell at least this wide and high (drawing units) shows its value in ms. */
    private static final double VALUE_CELL_W = 46;
    private static final double VALUE_CELL_H = 12;

    private Heatmap() {
    }

    /**
     * @param rowLabels one per row
     * @param colLabels one per column
     * @param values    ns per cell; negative means undefined (drawn grey)
     * @param unit      what a value is, for the scale ("tail")
     */
    static String render(List<String> rowLabels, List<String> colLabels, long[][] values, String unit) {
        return render(rowLabels, colLabels, values, unit, null);
    }

    /** As {@link #render(List, List, long[][], String)}, tagged {@code data-kind="kind"} when not null. */
    static String render(List<String> rowLabels, List<String> colLabels, long[][] values, String unit, String kind) {
        int rows = Math.min(rowLabels.size(), MAX_ROWS);
        int cols = Math.min(colLabels.size(), MAX_COLS);
        long[][] v = new long[rows][cols];
        long max = 0;
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                v[r][c] = binMax(values, r, rows, c, cols, rowLabels.size(), colLabels.size());
                max = Math.max(max, v[r][c]);
            }
        }
        double cellW = PLOT / cols;
        double cellH = Math.max(4, Math.min(14, 640.0 / rows));
        double top = 4;
        double height = top + rows * cellH + 36 + LEGEND_H;
        double width = GUTTER + PLOT + 28;
        StringBuilder[] paths = new StringBuilder[SHADES + 1];
        for (int k = 0; k <= SHADES; k++) {
            paths[k] = new StringBuilder();
        }
        for (int r = 0; r < rows; r++) {
            int c = 0;
            while (c < cols) {
                int shade = shade(v[r][c], max);
                int end = c + 1;
                while (end < cols && shade(v[r][end], max) == shade) {
                    end++; // neighbours of one shade are one rectangle
                }
                double w = (end - c) * cellW;
                StringBuilder p = paths[shade];
                p.append('M');
                Html.num(p, GUTTER + c * cellW).append(' ');
                Html.num(p, top + r * cellH).append('h');
                Html.num(p, w).append('v');
                Html.num(p, cellH).append('h');
                Html.num(p, -w).append('z');
                c = end;
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("<svg class=\"heatmap\" width=\"").append(Html.num(width)).append("\" height=\"")
                .append(Html.num(height)).append("\" viewBox=\"0 0 ").append(Html.num(width)).append(' ')
                .append(Html.num(height)).append("\" data-rows=\"").append(rowLabels.size()).append("\" data-cols=\"")
                .append(colLabels.size()).append("\" data-max-ns=\"").append(max).append('"');
        if (kind != null) {
            sb.append(" data-kind=\"").append(Html.esc(kind)).append('"');
        }
        sb.append('>');
        for (int k = 0; k <= SHADES; k++) {
            if (paths[k].length() > 0) {
                sb.append("<path class=\"h").append(k).append("\" d=\"").append(paths[k]).append("\"/>");
            }
        }
        int every = Math.max(1, (int) Math.ceil(12 / cellH));
        for (int r = 0; r < rows; r += every) {
            sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER - 4)).append("\" y=\"")
                    .append(Html.num(top + r * cellH + Math.min(cellH, 12) - 2)).append("\" text-anchor=\"end\">")
                    .append(Html.esc(rowLabels.get((int) ((long) r * rowLabels.size() / rows)))).append("</text>");
        }
        double base = top + rows * cellH;
        sb.append("<text class=\"axt\" x=\"").append(Html.num(GUTTER)).append("\" y=\"").append(Html.num(base + 14))
                .append("\">").append(Html.esc(colLabels.get(0))).append("</text><text class=\"axt\" x=\"")
                .append(Html.num(GUTTER + PLOT)).append("\" y=\"").append(Html.num(base + 14))
                .append("\" text-anchor=\"end\">").append(Html.esc(colLabels.get(colLabels.size() - 1)))
                .append("</text><text class=\"axt\" x=\"").append(Html.num(GUTTER + PLOT / 2)).append("\" y=\"")
                .append(Html.num(base + 30)).append("\" text-anchor=\"middle\">")
                .append(Html.esc(unit + ": darker is longer, up to " + Units.ms(max)
                        + " ms; lightest: 0; grey: not defined"
                        + (rows < rowLabels.size() || cols < colLabels.size() ? "; binned, each cell the largest of its bin" : "")))
                .append("</text>");
        legend(sb, base + 44, max);
        if (cellW >= VALUE_CELL_W && cellH >= VALUE_CELL_H) {
            // Cells wide enough for a number carry it: the picture reads without the scale.
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    if (v[r][c] < 0) {
                        continue;
                    }
                    sb.append("<text class=\"cv").append(shade(v[r][c], max) >= 6 ? " dk" : "").append("\" x=\"");
                    Html.num(sb, GUTTER + (c + 0.5) * cellW).append("\" y=\"");
                    Html.num(sb, top + r * cellH + cellH / 2 + 3.5).append("\" text-anchor=\"middle\">")
                            .append(Units.ms(v[r][c])).append("</text>");
                }
            }
        }
        sb.append("</svg>");
        return sb.toString();
    }

    /**
     * The colour scale with its values: grey (not defined), 0, then each shade from the smallest
     * value it stands for, in ms ({@link #lowerBound}), so a reader can tell a cell's value from its
     * colour; shades no value up to {@code max} can have are left out.
     */
    private static void legend(StringBuilder sb, double y, long max) {
        double w = PLOT / (SHADES + 1);
        sb.append("<g class=\"scale\" data-max-ns=\"").append(max).append("\">");
        int slot = 0;
        for (int k = 0; k <= SHADES; k++) {
            if (k >= 2 && (lowerBound(k, max) > max || k > 2 && lowerBound(k, max) == lowerBound(k - 1, max))) {
                continue; // a shade no value can have (all values 0, or a max of a few ns)
            }
            double x = GUTTER + slot++ * w;
            sb.append("<rect class=\"h").append(k).append("\" x=\"");
            Html.num(sb, x).append("\" y=\"");
            Html.num(sb, y).append("\" width=\"");
            Html.num(sb, w - 4).append("\" height=\"10\"/>");
            String label = k == 0 ? "not defined" : k == 1 ? "0" : k == 2 ? "> 0 ms" : "≥ "
                    + Units.ms(lowerBound(k, max)) + " ms";
            sb.append("<text class=\"axt\" x=\"");
            Html.num(sb, x).append("\" y=\"");
            Html.num(sb, y + 24).append("\" data-ns=\"").append(k < 2 ? (k == 0 ? "" : "0") : lowerBound(k, max))
                    .append("\">").append(Html.esc(label)).append("</text>");
        }
        sb.append("</g>");
    }

    /**
     * The smallest value (ns) drawn in shade {@code k} ≥ 2: shade 2 starts at 1 ns, shade k at the
     * least v with v × 7 / (max + 1) ≥ k − 2 (exact integer arithmetic, as {@link #shade}).
     */
    static long lowerBound(int k, long max) {
        long lo = ((k - 2L) * (max + 1) + (SHADES - 2)) / (SHADES - 1);
        return Math.max(1, lo);
    }

    private static int shade(long value, long max) {
        // 0 has the lightest shade of its own, so a short wait or tail is told apart from none.
        return value < 0 ? 0 : value == 0 ? 1 : 2 + (int) Math.min(SHADES - 2, value * (SHADES - 1) / (max + 1));
    }

    private static long binMax(long[][] values, int r, int rows, int c, int cols, int allRows, int allCols) {
        int r0 = (int) ((long) r * allRows / rows);
        int r1 = Math.max(r0 + 1, (int) ((long) (r + 1) * allRows / rows));
        int c0 = (int) ((long) c * allCols / cols);
        int c1 = Math.max(c0 + 1, (int) ((long) (c + 1) * allCols / cols));
        long m = -1;
        for (int i = r0; i < r1; i++) {
            for (int j = c0; j < c1 && j < values[i].length; j++) {
                m = Math.max(m, values[i][j]);
            }
        }
        return m;
    }
}
