package io.overlapanalyze.render.escape;

/**
 * A name from an input made safe for the HTML report, as element text or attribute value (SVG
 * included): {@code & < > " '} as entities, hidden characters ({@link Visible}) shown as
 * {@code \xHH} / {@code \}{@code uHHHH} (a U+202E that would reorder the rest of a cell is shown, not
 * obeyed), and a name holding right-to-left letters isolated between U+2068 FIRST STRONG ISOLATE
 * and U+2069 POP DIRECTIONAL ISOLATE: it is laid out in its own direction without moving the
 * numbers and words around it. (The isolating characters work where {@code <bdi>} cannot: in
 * attributes and SVG text.)
 */
public final class HtmlEscape {
    /** U+2068 FIRST STRONG ISOLATE. */
    public static final char ISOLATE = '\u2068';
    /** U+2069 POP DIRECTIONAL ISOLATE. */
    public static final char POP_ISOLATE = '\u2069';

    private HtmlEscape() {
    }

    /** {@code s} escaped (and isolated when it holds right-to-left text); "" for null. */
    public static String text(String s) {
        if (s == null) {
            return "";
        }
        String escaped = Visible.escaped(s, c -> switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            default -> null;
        });
        return rightToLeft(escaped) ? ISOLATE + escaped + POP_ISOLATE : escaped;
    }

    private static boolean rightToLeft(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            byte d = Character.getDirectionality(cp);
            if (d == Character.DIRECTIONALITY_RIGHT_TO_LEFT || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC) {
                return true;
            }
            i += Character.charCount(cp);
        }
        return false;
    }
}
