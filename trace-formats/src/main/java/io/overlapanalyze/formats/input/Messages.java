package io.overlapanalyze.formats.input;

import java.nio.file.Path;

/**
 * Makes text from outside (file names, values quoted from a trace) safe to print in a one-line
 * message: a file name holding a newline must not split the line, and one holding terminal escape
 * bytes must not drive the terminal. Plain names are printed as they are.
 */
public final class Messages {
    private Messages() {
    }

    /** {@code path} as typed when it is plain, else in single quotes with its special characters escaped. */
    public static String quote(Path path) {
        return quote(String.valueOf(path));
    }

    /** {@code s} when it is plain, else in single quotes with its special characters escaped. */
    public static String quote(String s) {
        return isPlain(s) ? s : "'" + escape(s).replace("'", "\\'") + "'";
    }

    /**
     * A whole message made printable on one line: every control character (newline, tab, escape,
     * DEL, the Unicode line separators) becomes a visible escape ({@code \n}, {@code \x1b}).
     */
    public static String printable(String message) {
        return isPlain(message) ? message : escape(message);
    }

    /**
     * An exception's message as one line: runs of white space become one space and control
     * characters {@code ?} (a reader may quote a value from the file that holds a newline); the
     * class name when there is no message.
     */
    public static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ").replaceAll("\\p{Cntrl}", "?").trim();
    }

    /**
     * The first line of {@code e}'s message, its runs of white space made one space: what a
     * library says is wrong, without what it adds on the following lines (Jackson's source
     * location, SQLite's statement, a failed Spark job's stack trace). The message of the first
     * cause that has one when {@code e} has none (a wrapper); the class name when no cause has one.
     * Control characters other than white space are kept: the caller prints through an escaper.
     */
    public static String firstLine(Throwable e) {
        Throwable t = e;
        while (t.getMessage() == null && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : firstLine(t.getMessage());
    }

    /** The first line of {@code message}, its runs of white space made one space, trimmed (see {@link #firstLine(Throwable)}). */
    public static String firstLine(String message) {
        int end = 0;
        while (end < message.length() && message.charAt(end) != '\n' && message.charAt(end) != '\r') {
            end++;
        }
        return message.substring(0, end).replaceAll("\\s+", " ").trim();
    }

    private static boolean isPlain(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isSpecial(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpecial(char c) {
        return Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (!isSpecial(c)) {
                        b.append(c);
                    } else if (c < 0x100) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(String.format("\\u%04x", (int) c));
                    }
                }
            }
        }
        return b.toString();
    }
}
