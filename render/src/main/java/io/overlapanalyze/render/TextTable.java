package io.overlapanalyze.render;

import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.escape.TerminalEscape;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Plain-text and markdown tables for every text renderer: the columns whose index is in
 * {@code left} are left-aligned (names, causes), the rest right-aligned (numbers).
 */
public final class TextTable {
    private TextTable() {
    }

    /** Every cell goes through the terminal escaper: a table cell never holds a control character. */
    public static void render(List<String[]> rawRows, Set<Integer> left, StringBuilder sb) {
        List<String[]> rows = rawRows.stream().map(r -> Arrays.stream(r).map(TerminalEscape::text)
                .toArray(String[]::new)).toList();
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
                String pad = " ".repeat(width[c] - r[c].length());
                line.append(left.contains(c) ? r[c] + pad : pad + r[c]);
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
    }

    /** A markdown table cell or text: {@link MarkdownEscape#text} (pipes escaped, no line breaks, no markup). */
    public static String md(String s) {
        return MarkdownEscape.text(s);
    }

    /** A GitHub-flavoured markdown table; {@code align} per column: 'l' or 'r'. */
    public static void markdown(List<String[]> rows, String align, StringBuilder sb) {
        String[] header = rows.get(0);
        sb.append('|');
        for (String h : header) {
            sb.append(' ').append(md(h)).append(" |");
        }
        sb.append("\n|");
        for (int c = 0; c < header.length; c++) {
            sb.append(align.charAt(c) == 'r' ? "--:|" : "---|");
        }
        sb.append('\n');
        for (String[] r : rows.subList(1, rows.size())) {
            sb.append('|');
            for (String cell : r) {
                sb.append(' ').append(md(cell)).append(" |");
            }
            sb.append('\n');
        }
    }
}
