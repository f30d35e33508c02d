package io.overlapanalyze.render.escape;

/**
 * A name from an input made safe for a terminal, a plain-text report or a line on standard error:
 * every hidden character ({@link Visible}: C0 and C1 controls, DEL, line separators, bidirectional
 * formatting) is shown as {@code \xHH} or {@code \}{@code uHHHH} instead of acting, so a name can neither
 * drive the terminal (clear the screen, set the window title) nor start a line of its own that
 * looks like the report's. Everything else is printed as it is.
 */
public final class TerminalEscape {
    private TerminalEscape() {
    }

    /** {@code s} with its hidden characters shown; {@code s} itself when it has none; null for null. */
    public static String text(String s) {
        return s == null ? null : Visible.escaped(s, c -> null);
    }
}
