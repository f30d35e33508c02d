package io.overlapanalyze.render.html;

/** Escaping and number formatting for the HTML/SVG report (no library: the page is plain text). */
final class Html {
    private Html() {
    }

    /** Text or attribute value with {@code & < > " '} escaped. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String r = switch (c) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (r != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (r != null) {
                    b.append(r);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
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
