package io.overlapanalyze.formats.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns short strings straight from UTF-8 bytes, so that the millions of events of a big trace
 * that repeat a few thousand names ({@code ph}, {@code cat}, kernel and op names) cost a hash
 * lookup each instead of a decoded {@code String}. Identical text gives the identical
 * {@code String} instance, which also makes downstream maps hit on the cached hash code.
 *
 * <p>Bounded: names longer than {@link #MAX_LENGTH} bytes and anything after
 * {@link #MAX_ENTRIES} distinct names get a fresh {@code String} (a trace with unbounded distinct
 * names, e.g. ids baked into names, must not turn the table into the memory problem it solves).
 */
public final class Utf8NameTable {
    static final int MAX_LENGTH = 512;
    static final int MAX_ENTRIES = 1 << 18;

    private String[] strings = new String[1024];
    private byte[][] bytes = new byte[1024][];
    private int[] hashes = new int[1024];
    private int size;

    /** The string of the scanner's last slice (a string, decoded; or a number's text), interned. */
    public String intern(Utf8JsonScanner s) {
        if (s.sliceEscaped()) {
            return s.stringValue();
        }
        return intern(s.buffer(), s.sliceStart(), s.sliceEnd());
    }

    private byte[] scratch = new byte[64];

    /**
     * The interned string of {@code buf[off, off + len)}: chars from Jackson's token buffer (the
     * reference path). ASCII names, nearly all of them, share the table with the byte path; any
     * other name gets a fresh {@code String} (a name with a lone surrogate has no UTF-8 form that
     * would tell it apart from others).
     */
    public String intern(char[] buf, int off, int len) {
        if (len > MAX_LENGTH) {
            return new String(buf, off, len);
        }
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        for (int i = 0; i < len; i++) {
            char c = buf[off + i];
            if (c >= 0x80) {
                return new String(buf, off, len);
            }
            scratch[i] = (byte) c;
        }
        return intern(scratch, 0, len);
    }

    /** The interned string of the well-formed UTF-8 {@code buf[start, end)}. */
    String intern(byte[] buf, int start, int end) {
        int len = end - start;
        if (len > MAX_LENGTH) {
            return new String(buf, start, len, StandardCharsets.UTF_8);
        }
        int h = hash(buf, start, len);
        int mask = strings.length - 1;
        int slot = mix(h) & mask;
        for (String s; (s = strings[slot]) != null; slot = (slot + 1) & mask) {
            byte[] c = bytes[slot];
            if (hashes[slot] == h && Arrays.equals(c, 0, c.length, buf, start, end)) {
                return s;
            }
        }
        String s = new String(buf, start, len, StandardCharsets.UTF_8);
        if (size >= MAX_ENTRIES) {
            return s;
        }
        // The JVM's instance: "X".equals(ph) and the like in the readers then succeed on identity,
        // without comparing characters (once per distinct name, so the JVM's table stays small).
        s = s.intern();
        strings[slot] = s;
        bytes[slot] = Arrays.copyOfRange(buf, start, end);
        hashes[slot] = h;
        if (++size * 2 > strings.length) {
            rehash();
        }
        return s;
    }

    /**
     * A hash of the length and up to 8 sampled bytes (ends and quarters), not of every byte: the
     * full comparison follows anyway, and hashing long kernel names in full costs as much as
     * scanning them.
     */
    private static int hash(byte[] buf, int off, int len) {
        int h = len;
        if (len == 0) {
            return h;
        }
        int last = off + len - 1;
        h = 31 * h + buf[off];
        h = 31 * h + buf[last];
        if (len > 2) {
            int q = len >>> 2;
            h = 31 * h + buf[off + q];
            h = 31 * h + buf[off + 2 * q];
            h = 31 * h + buf[off + 3 * q];
            h = 31 * h + buf[off + 1];
            h = 31 * h + buf[last - 1];
            h = 31 * h + buf[last - 2 < off ? off : last - 2];
        }
        return h;
    }

    private static int mix(int h) {
        return h ^ (h >>> 16) ^ (h >>> 7);
    }

    private void rehash() {
        String[] oldS = strings;
        byte[][] oldB = bytes;
        int[] oldH = hashes;
        strings = new String[oldS.length * 2];
        bytes = new byte[oldS.length * 2][];
        hashes = new int[oldS.length * 2];
        int mask = strings.length - 1;
        for (int i = 0; i < oldS.length; i++) {
            if (oldS[i] != null) {
                int slot = mix(oldH[i]) & mask;
                while (strings[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                strings[slot] = oldS[i];
                bytes[slot] = oldB[i];
                hashes[slot] = oldH[i];
            }
        }
    }
}
