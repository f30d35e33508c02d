package io.overlapanalyze.synth;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is wrong with a scenario or job file's JSON, in plain words, from a parser error: the
 * readers' wording ({@code formats.input.JsonProblem}), kept here so that the generator stands
 * alone (no module of the tool below it). {@code JsonWordingParityTest} (trace-formats, which uses
 * the generator in its tests) holds the two to the same words on every kind of error.
 */
final class JsonWording {
    private JsonWording() {
    }

    /** "(code 120)" and the like; every pattern below is bounded or anchored (linear in the message). */
    private static final Pattern CHAR = Pattern.compile("^Unexpected character \\('(.{1,2})' \\(code (\\d{1,7})[^)]{0,40}\\)\\)");
    private static final Pattern TOKEN = Pattern.compile("^Unrecognized token '([^']{0,40})");
    private static final Pattern CTRL = Pattern.compile("^Illegal (?:unquoted )?character \\(\\(CTRL-CHAR, code (\\d{1,7})\\)\\)");
    private static final Pattern CLOSE = Pattern.compile("^Unexpected close marker '(.)': expected '(.)'");
    private static final Pattern DEPTH = Pattern.compile("nesting depth \\((\\d{1,12})\\) exceeds the maximum allowed \\((\\d{1,12})");
    private static final Pattern LENGTH = Pattern.compile("^String value length \\((\\d{1,12})\\) exceeds the maximum allowed \\((\\d{1,12})");

    /** The problem {@code e} reports, in plain words, one line, no location. */
    static String describe(JsonProcessingException e) {
        return describe(e.getOriginalMessage());
    }

    /** As {@link #describe(JsonProcessingException)}, from Jackson's original message. */
    static String describe(String jackson) {
        if (jackson == null || jackson.isBlank()) {
            return "malformed JSON";
        }
        String m = jackson.lines().findFirst().orElse(jackson).trim();
        if (m.length() > 400) {
            m = m.substring(0, 400);
        }
        Matcher c = CHAR.matcher(m);
        if (c.find()) {
            String ch = printableChar(c.group(1), Integer.parseInt(c.group(2)));
            return "unexpected " + ch + " " + where(m);
        }
        Matcher t = TOKEN.matcher(m);
        if (t.find()) {
            return "unexpected word '" + printable(t.group(1)) + "' where a value belongs (a string must be "
                    + "in double quotes; true, false and null are lower case)";
        }
        Matcher ctrl = CTRL.matcher(m);
        if (ctrl.find()) {
            return "a raw control character (code " + ctrl.group(1) + ") inside a string, where JSON wants it escaped";
        }
        Matcher close = CLOSE.matcher(m);
        if (close.find()) {
            return "'" + close.group(1) + "' where '" + close.group(2) + "' closes the open "
                    + ("}".equals(close.group(2)) ? "object" : "array");
        }
        if (m.startsWith("Unexpected end-of-input")) {
            if (m.contains("close marker for Object") || m.contains("OBJECT")) {
                return "the document ends inside an object (the file is cut?)";
            }
            if (m.contains("close marker for Array") || m.contains("ARRAY")) {
                return "the document ends inside an array (the file is cut?)";
            }
            if (m.contains("String") || m.contains("STRING") || m.contains("string") || m.contains("field name")) {
                return "the document ends inside a string (the file is cut?)";
            }
            return "the document ends early (the file is cut?)";
        }
        if (m.contains("Invalid UTF-8") || m.contains("Invalid UTF-32") || m.contains("Unexpected EOF in the middle of a")
                || m.contains("multi-byte char")) {
            return "bytes that are not UTF-8 text";
        }
        Matcher d = DEPTH.matcher(m);
        if (d.find()) {
            return "nested deeper than " + d.group(2) + " levels";
        }
        Matcher l = LENGTH.matcher(m);
        if (l.find()) {
            return "a string longer than " + l.group(2) + " characters";
        }
        if (m.startsWith("Numeric value") && m.contains("out of range")) {
            return "a number too large for its field";
        }
        if (m.startsWith("Invalid numeric value") || m.startsWith("Leading zeroes") || m.contains("Non-standard token")
                || m.startsWith("Unexpected character") || m.contains("Invalid exponent")) {
            return "a malformed number or value (JSON numbers are plain decimals: no leading zeros, NaN or Infinity)";
        }
        if (m.startsWith("Duplicate field")) {
            return "a key given twice in one object";
        }
        // Anything else: Jackson's first words, without its source description and token names.
        String plain = m.replaceAll("\\s*\\(start marker at \\[Source:[^]]{0,400}]\\)", "")
                .replaceAll("\\s*at \\[Source:.*$", "")
                .replace("VALUE_STRING", "a string").replace("VALUE_NUMBER_INT", "a number")
                .replace("START_OBJECT", "an object").replace("START_ARRAY", "an array").replace("END_OBJECT", "'}'")
                .replace("END_ARRAY", "']'");
        return printable(plain.isBlank() ? "malformed JSON" : plain);
    }

    /** What the parser wanted instead, from the tail of an "Unexpected character" message. */
    private static String where(String m) {
        if (m.contains("comma to separate Object entries")) {
            return "where ',' or '}' belongs";
        }
        if (m.contains("comma to separate Array entries")) {
            return "where ',' or ']' belongs";
        }
        if (m.contains("double-quote to start field name")) {
            return "where a key in double quotes belongs";
        }
        if (m.contains("colon to separate field name and value")) {
            return "where ':' belongs";
        }
        if (m.contains("maybe a (non-standard) comment")) {
            return "(JSON has no comments)";
        }
        if (m.contains("expected a valid value") || m.contains("expected a value")) {
            return "where a value belongs";
        }
        if (m.contains("Expected space separating root-level values") || m.contains("expected end-of-input")) {
            return "after the end of the document";
        }
        return "in the JSON";
    }

    private static String printableChar(String text, int code) {
        if (code < 0x20 || code == 0x7f) {
            return "control character (code " + code + ")";
        }
        return "character '" + printable(text) + "'";
    }

    /** A message made printable on one line (control characters as visible escapes), as the readers do. */
    private static String printable(String message) {
        return isPlain(message) ? message : escape(message);
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
