package io.overlapanalyze.cli.render;

import java.util.List;

/** Plain-text table: first column left-aligned, the rest right-aligned. */
final class Table {
    private Table() {
    }

    static void render(List<String[]> rows, int headerRows, StringBuilder sb) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int c = 0; c < cols; c++) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) {
                if (c > 0) {
                    line.append("  ");
                }
                String cell = r[c];
                if (c == 0 || c == 7) {
                    line.append(cell).append(" ".repeat(width[c] - cell.length()));
                } else {
                    line.append(" ".repeat(width[c] - cell.length())).append(cell);
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
