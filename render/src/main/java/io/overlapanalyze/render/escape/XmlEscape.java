package io.overlapanalyze.render.escape;

/**
 * A name from an input made writable as XML 1.0 text or attribute value (JUnit reports): XML 1.0
 * forbids most C0 controls even as character references, so one byte in a name would make the
 * whole file unreadable to the CI. Hidden characters ({@link Visible}, a superset of what XML
 * forbids) are shown as {@code \xHH} / {@code \}{@code uHHHH}. Markup ({@code & < > "}) is left to the
 * XML writer that receives the value ({@code XMLStreamWriter} escapes it), so it is not escaped
 * twice.
 */
public final class XmlEscape {
    private XmlEscape() {
    }

    /** {@code s} with its hidden characters shown; "" for null. */
    public static String chars(String s) {
        String t = TerminalEscape.text(s);
        return t == null ? "" : t;
    }
}
