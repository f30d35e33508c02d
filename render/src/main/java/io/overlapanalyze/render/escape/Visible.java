package io.overlapanalyze.render.escape;

/**
 * The one rule every escaper here shares: which characters of a name from an input never reach an
 * output as themselves, and how they are shown instead. Hidden are the C0 controls (escape
 * sequences, bell, carriage return, line feed), DEL, the C1 controls (0x80-0x9f, among them the
 * one-byte CSI), the Unicode line and paragraph separators, the explicit bidirectional formatting
 * characters (U+202E reorders what follows it: "Trojan source"), unpaired surrogates and the
 * non-characters U+FFFE/U+FFFF (neither can be written as UTF-8 or XML). They are shown as
 * {@code \xHH} (below 0x100) or {@code \}{@code uHHHH}: readable, and inert in every output.
 */
final class Visible {
    private Visible() {
    }

    /** Whether {@code s.charAt(i)} is hidden (a surrogate is judged with its neighbour). */
    static boolean hidden(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return hiddenChar(c);
    }

    /** Whether {@code c}, not a surrogate, is hidden. */
    static boolean hiddenChar(int c) {
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
            return true;
        }
        if (c < 0x200e) {
            return c == 0x061c; // ARABIC LETTER MARK
        }
        return c == 0x200e || c == 0x200f || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069) || c == 0xfffe || c == 0xffff;
    }

    /** Appends the visible form of a hidden character. */
    static void appendShown(StringBuilder out, char c) {
        String hex = Integer.toHexString(c);
        if (c < 0x100) {
            out.append("\\x").append(hex.length() == 1 ? "0" : "").append(hex);
        } else {
            out.append("\\u").append("0".repeat(4 - hex.length())).append(hex);
        }
    }

    /** What an escaper writes for a character that is not hidden: its replacement, or {@code null} to keep it. */
    @FunctionalInterface
    interface Replacement {
        String of(char c);
    }

    /**
     * {@code s} with its hidden characters shown and every other character {@code replacement}
     * names replaced; {@code s} itself when nothing changes (no copy for the common plain name).
     */
    static String escaped(String s, Replacement replacement) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean hidden = hidden(s, i);
            String r = hidden ? null : replacement.of(c);
            if ((hidden || r != null) && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out == null) {
                continue;
            }
            if (hidden) {
                appendShown(out, c);
            } else if (r != null) {
                out.append(r);
            } else {
                out.append(c);
            }
        }
        return out == null ? s : out.toString();
    }
}
