package io.overlapanalyze.formats.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;

/** Small helpers to read one JSON value leniently or strictly from a streaming parser. */
final class JsonValues {
    static final long NONE = CollectiveArgs.NONE;

    private JsonValues() {
    }

    /** The kind of JSON value at the current token, for messages ("a string", "an array"). */
    static String describe(JsonToken t) {
        if (t == null) {
            return "missing";
        }
        switch (t) {
            case START_OBJECT:
                return "an object";
            case START_ARRAY:
                return "an array";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "a number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "null";
            default:
                return t.toString();
        }
    }

    /**
     * A scalar as text ({@code null} for JSON null). Objects and arrays are a format error: the
     * field is one the reader relies on.
     */
    static String scalarText(JsonParser p, String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            throw new BadTraceException("\"" + field + "\" is " + describe(t) + ", expected a string");
        }
        return p.getText();
    }

    /** A scalar as text, or {@code null} when it is null, an object or an array (skipped). */
    static String lenientText(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        return t == JsonToken.VALUE_NULL ? null : p.getText();
    }

    /**
     * An integer from a number or a numeric string; {@link #NONE} for anything else, including
     * integers beyond the {@code long} range (a uint64 such as {@code Comms Id}: never fail a file
     * over metadata the reader does not need exactly).
     */
    static long lenientLong(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return parseLong(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        }
        if (t == JsonToken.VALUE_STRING) {
            String s = p.getText().trim();
            return parseLong(s.toCharArray(), 0, s.length());
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
        }
        return NONE;
    }

    /** A JSON array of scalars (or a scalar) as text "[a, b]", nested containers skipped. */
    static String arrayOrScalarText(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_ARRAY) {
            StringBuilder sb = new StringBuilder("[");
            boolean first = true;
            for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                if (e == null) {
                    throw new java.io.EOFException("end of input inside an array");
                }
                if (e == JsonToken.START_OBJECT || e == JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                if (!first) {
                    sb.append(", ");
                }
                sb.append(p.getText());
                first = false;
            }
            return sb.append(']').toString();
        }
        return lenientText(p);
    }

    /** Parses an optionally signed decimal integer; {@link #NONE} when malformed or out of range. */
    static long parseLong(char[] buf, int off, int len) {
        byte[] ascii = new byte[len];
        for (int i = 0; i < len; i++) {
            char c = buf[off + i];
            if (c > 0x7f) {
                return NONE;
            }
            ascii[i] = (byte) c;
        }
        return parseLong(ascii, 0, len);
    }

    /** As {@link #parseLong(char[], int, int)}, on ASCII bytes (the byte scanner's number text). */
    static long parseLong(byte[] buf, int off, int len) {
        int i = off;
        int end = off + len;
        if (i >= end) {
            return NONE;
        }
        boolean negative = buf[i] == '-';
        if (negative || buf[i] == '+') {
            i++;
        }
        if (i >= end) {
            return NONE;
        }
        long v = 0;
        for (; i < end; i++) {
            int c = buf[i];
            if (c < '0' || c > '9') {
                return NONE;
            }
            // Accumulate negatively so that Long.MIN_VALUE's magnitude fits; overflow → NONE. The bound
            // is a constant: a long division per digit is a runtime call in the client compiler's code.
            if (v < MIN_DIV_10 || (v == MIN_DIV_10 && c == '9')) {
                return NONE;
            }
            v = v * 10 - (c - '0');
        }
        if (negative) {
            return v;
        }
        return v == Long.MIN_VALUE ? NONE : -v;
    }

    /** {@code v * 10 - d} stays a long for every {@code v >= MIN_DIV_10} and digit {@code d}, but 9 at the bound. */
    private static final long MIN_DIV_10 = Long.MIN_VALUE / 10;
}
