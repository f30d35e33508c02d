package io.overlapanalyze.render;

/**
 * Text from an input made safe for a terminal: control characters (C0, DEL, C1: escape sequences
 * that set the title, clear the screen or forge report lines, and line breaks) are shown as
 * {@code \xHH} instead of acting.
 */
public final class TerminalText {
    private TerminalText() {
    }

    public static String safe(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
            if (control) {
                if (out == null) {
                    out = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                out.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? s : out.toString();
    }
}
