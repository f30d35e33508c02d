package io.overlapanalyze.render;

import io.overlapanalyze.render.escape.TerminalEscape;

/**
 * Text from an input made safe for a terminal: the name under which the text renderers call
 * {@link TerminalEscape}, the one terminal escaper (package {@code render.escape} holds one
 * escaper per output kind).
 */
public final class TerminalText {
    private TerminalText() {
    }

    /** {@link TerminalEscape#text}: kept for the renderers that call it by this name. */
    public static String safe(String s) {
        return TerminalEscape.text(s);
    }
}
