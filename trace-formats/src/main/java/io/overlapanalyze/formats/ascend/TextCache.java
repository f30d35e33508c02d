package io.overlapanalyze.formats.ascend;

import com.fasterxml.jackson.core.JsonParser;

import java.io.IOException;

/**
 * The current token's text as a {@code String} shared with earlier equal texts: names, pids, tids
 * and phases repeat across millions of events, so looking the characters up in a small open-address
 * table avoids one {@code String} per field. Bounded: past {@link #LIMIT} distinct texts it stops
 * adding and simply returns new strings.
 *
 * <p>Not the model's {@code StringPool}: this works on Jackson's character buffer before a
 * {@code String} exists (the saving is the decoding and the allocation), hands out no codes, and
 * may forget (its table is bounded: a file whose texts do not repeat cannot grow it without end). Names
 * it returns reach the model through a {@code StringPool}, which then finds the same instance
 * again by identity. It belongs to the Ascend reader, whose reference path reads every field with
 * Jackson; the Kineto reader interns from bytes ({@code formats.json.Utf8NameTable}).
 */
final class TextCache {
    private static final int LIMIT = 1 << 16;
    private String[] table = new String[1024];
    private int size;

    String text(JsonParser p) throws IOException {
        char[] buf = p.getTextCharacters();
        int off = p.getTextOffset();
        int len = p.getTextLength();
        if (len > 256) {
            return new String(buf, off, len);
        }
        int h = 0;
        for (int i = 0; i < len; i++) {
            h = 31 * h + buf[off + i];
        }
        int mask = table.length - 1;
        int s = (h ^ (h >>> 16)) & mask;
        for (String c = table[s]; c != null; c = table[s]) {
            if (c.length() == len && same(c, buf, off, len)) {
                return c;
            }
            s = (s + 1) & mask;
        }
        String str = new String(buf, off, len);
        if (size < LIMIT) {
            table[s] = str;
            if (++size * 2 > table.length) {
                rehash();
            }
        }
        return str;
    }

    private static boolean same(String c, char[] buf, int off, int len) {
        for (int i = 0; i < len; i++) {
            if (c.charAt(i) != buf[off + i]) {
                return false;
            }
        }
        return true;
    }

    private void rehash() {
        String[] old = table;
        table = new String[old.length * 2];
        int mask = table.length - 1;
        for (String c : old) {
            if (c != null) {
                int h = c.hashCode(); // String.hashCode is the same 31-polynomial over the chars
                int s = (h ^ (h >>> 16)) & mask;
                while (table[s] != null) {
                    s = (s + 1) & mask;
                }
                table[s] = c;
            }
        }
    }
}
