package io.overlapanalyze.formats.kineto;

import java.util.Arrays;

/**
 * Interns short strings straight from a parser's char buffer, so that the millions of events of a
 * big trace that repeat a few thousand names ({@code ph}, {@code cat}, kernel and op names) cost a
 * hash lookup each instead of a new {@code String}. Identical text gives the identical
 * {@code String} instance, which also makes downstream maps hit on the cached hash code.
 *
 * <p>Bounded: names longer than {@link #MAX_LENGTH} chars and anything after {@link #MAX_ENTRIES}
 * distinct names get a fresh {@code String} (a trace with unbounded distinct names, e.g. ids baked
 * into names, must not turn the table into the memory problem it solves).
 */
final class NameTable {
    static final int MAX_LENGTH = 512;
    static final int MAX_ENTRIES = 1 << 18;

    private String[] strings = new String[1024];
    private char[][] chars = new char[1024][]; // each string's chars, for a vectorised comparison
    private int[] hashes = new int[1024];
    private int size;

    /** The interned string for {@code buf[off, off+len)}. */
    String intern(char[] buf, int off, int len) {
        if (len > MAX_LENGTH) {
            return new String(buf, off, len);
        }
        int h = hash(buf, off, len);
        int mask = strings.length - 1;
        int slot = mix(h) & mask;
        for (String s; (s = strings[slot]) != null; slot = (slot + 1) & mask) {
            char[] c = chars[slot];
            if (hashes[slot] == h && Arrays.equals(c, 0, c.length, buf, off, off + len)) {
                return s;
            }
        }
        String s = new String(buf, off, len);
        if (size >= MAX_ENTRIES) {
            return s;
        }
        strings[slot] = s;
        chars[slot] = Arrays.copyOfRange(buf, off, off + len);
        hashes[slot] = h;
        if (++size * 2 > strings.length) {
            rehash();
        }
        return s;
    }

    int size() {
        return size;
    }

    /**
     * A hash of the length and up to 9 sampled chars (ends and quarters), not of every char: the
     * full comparison follows anyway, and hashing 60-char op names in full
     * cost as much as Jackson's decoding of them. Names that differ only between samples collide
     * and are still told apart by it, at the cost of a longer probe.
     */
    private static int hash(char[] buf, int off, int len) {
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
        char[][] oldC = chars;
        int[] oldH = hashes;
        strings = new String[oldS.length * 2];
        chars = new char[oldS.length * 2][];
        hashes = new int[oldS.length * 2];
        int mask = strings.length - 1;
        for (int i = 0; i < oldS.length; i++) {
            if (oldS[i] != null) {
                int slot = mix(oldH[i]) & mask;
                while (strings[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                strings[slot] = oldS[i];
                chars[slot] = oldC[i];
                hashes[slot] = oldH[i];
            }
        }
    }
}
