package io.overlapanalyze.render.html;

import io.overlapanalyze.render.escape.HtmlEscape;

/** Escaping and number formatting for the HTML/SVG report (no library: the page is plain text). */
final class Html {
    private Html() {
    }

    /**
     * Text or attribute value: {@link HtmlEscape#text} ({@code & < > " '} as entities, control and
     * bidirectional formatting characters shown, right-to-left names isolated).
     */
    static String esc(String s) {
        return HtmlEscape.text(s);
    }

    /**
     * A drawing coordinate with at most one decimal ("12.5", "3"): a tenth of a pixel is finer than
     * any screen, and short numbers keep big reports small. Times are never written this way.
     */
    static StringBuilder num(StringBuilder sb, double v) {
        long tenths = Math.round(v * 10);
        if (tenths < 0) {
            sb.append('-');
            tenths = -tenths;
        }
        sb.append(tenths / 10);
        if (tenths % 10 != 0) {
            sb.append('.').append(tenths % 10);
        }
        return sb;
    }

    static String num(double v) {
        return num(new StringBuilder(), v).toString();
    }
}
