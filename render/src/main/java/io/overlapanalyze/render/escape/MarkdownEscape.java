package io.overlapanalyze.render.escape;

/**
 * A name from an input made safe for GitHub-flavoured markdown (CI job summaries, pull-request
 * comments). Hidden characters ({@link Visible}) are shown as {@code \xHH}: a line feed in a name
 * cannot end the line, so the name cannot start a headline, a list or a table row of its own.
 * Every character that could start markup inside a line is backslash-escaped: emphasis
 * ({@code * _ ~}), code ({@code `}), links and images ({@code [}: without it {@code ](url)} is
 * plain text), raw HTML and autolinks ({@code <}), entities ({@code &}, which could spell a hidden
 * character), table cells ({@code |}), math ({@code $}) and the backslash itself (else an input's
 * {@code \|} would undo the pipe's escape). {@code ]} and {@code >} are left as they are (they make
 * nothing on their own inside a line: fewer backslashes in the reports). A value is never printed
 * at the start of a line, where {@code #}, {@code >}, {@code -} or {@code 1.} would mean something.
 */
public final class MarkdownEscape {
    private static final String SPECIAL = "\\`*_~[<&|$";

    private MarkdownEscape() {
    }

    /** {@code s} as literal markdown text, in a paragraph, a list item or a table cell; "" for null. */
    public static String text(String s) {
        return s == null ? "" : Visible.escaped(s, c -> SPECIAL.indexOf(c) >= 0 ? "\\" + c : null);
    }

    /**
     * {@code s} as a whole inline code span, backticks included: fenced by one backtick more than
     * its longest run of backticks (so none of its own can close the span), hidden characters
     * shown. Not for table cells: GitHub splits cells at a pipe even inside a code span.
     */
    public static String code(String s) {
        String shown = TerminalEscape.text(s == null ? "" : s);
        int longest = 0;
        int run = 0;
        for (int i = 0; i < shown.length(); i++) {
            run = shown.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        boolean pad = !shown.isEmpty() && (shown.charAt(0) == '`' || shown.charAt(shown.length() - 1) == '`');
        return fence + (pad ? " " : "") + shown + (pad ? " " : "") + fence;
    }
}
