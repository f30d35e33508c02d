package io.overlapanalyze.formats.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns short strings straight from UTF-8 bytes, so that the millions of events of a big trace
 * that repeat a few thousand names ({@code ph}, {@code cat}, kernel and op names) cost a hash
 * lookup each instead of a decoded {@code String}. Identical text gives the identical
 * {@code String} instance, which also makes downstream maps hit on the cached hash code.
 *
 * <p>Long names repeat too: kernel names with template arguments run to kilobytes, and every
 * collective of a 1,024-rank job spells its group's member list in about 6 KB; interned, such a
 * name is hashed and compared downstream through its one instance's cached hash instead of anew.
 *
 * <p>Bounded: names longer than {@link #MAX_LENGTH} bytes, anything after {@link #MAX_ENTRIES}
 * distinct names, and long names once {@link #MAX_LONG_BYTES} of them are held get a fresh
 * {@code String} (a trace with unbounded distinct names, e.g. ids baked into names, must not turn
 * the table into the memory problem it solves).
 */
public final class Utf8NameTable {
    static final int MAX_LENGTH = 64 << 10;
    static final int MAX_ENTRIES = 1 << 18;
    /** Bytes of names over {@link #SHORT} bytes the table holds at most (their copies and strings: twice that). */
    static final long MAX_LONG_BYTES = 16 << 20;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Names of up to this many bytes are found by their bytes as two words ({@link #intern(byte[], int, int)}). */
    private static final int SHORT = 16;
    private String[] shortStrings = new String[1024];
    private long[] shortWords = new long[2 * 1024];
    private byte[] shortLengths = new byte[1024];
    private int shortSize;

    private String[] strings = new String[1024];
    private byte[][] bytes = new byte[1024][];
    private int[] hashes = new int[1024];
    private int size;
    private long longBytes;

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

    /**
     * The interned string of the well-formed UTF-8 {@code buf[start, end)}. Names of up to 16 bytes
     * (pids, tids, {@code ph}, categories: most fields of most events) are found by their bytes read
     * as two words, in a table of their own; longer ones by a hash of all their bytes (a word at a time) and a comparison. Both
     * lookups are written out in one method each: they run for several fields of every event, and
     * the client compiler (the launcher's choice for big traces) inlines no callee of this size.
     */
    String intern(byte[] buf, int start, int end) {
        int len = end - start;
        if (len > SHORT || start + SHORT > buf.length) {
            return internLong(buf, start, end);
        }
        // The bytes as two little-endian words, zero above the name: with the length, they are the name.
        long w0;
        long w1 = 0;
        if (len <= 8) {
            w0 = (long) LONGS.get(buf, start) & (len == 8 ? -1L : (1L << (len << 3)) - 1);
        } else {
            w0 = (long) LONGS.get(buf, start);
            w1 = (long) LONGS.get(buf, start + 8) & (len == 16 ? -1L : (1L << ((len - 8) << 3)) - 1);
        }
        long h = (w0 * 0x9E3779B97F4A7C15L) ^ (w1 * 0xC2B2AE3D27D4EB4FL) ^ len;
        int mask = shortStrings.length - 1;
        int slot = (int) (h ^ (h >>> 32) ^ (h >>> 17)) & mask;
        for (String s; (s = shortStrings[slot]) != null; slot = (slot + 1) & mask) {
            if (shortWords[2 * slot] == w0 && shortWords[2 * slot + 1] == w1 && shortLengths[slot] == len) {
                return s;
            }
        }
        String s = internLong(buf, start, end);
        if (shortSize < MAX_ENTRIES) {
            shortStrings[slot] = s;
            shortWords[2 * slot] = w0;
            shortWords[2 * slot + 1] = w1;
            shortLengths[slot] = (byte) len;
            if (++shortSize * 2 > shortStrings.length) {
                growShort();
            }
        }
        return s;
    }

    /** {@link #intern(byte[], int, int)} of any length: a hash of every byte, then a comparison. */
    private String internLong(byte[] buf, int start, int end) {
        int len = end - start;
        if (len > MAX_LENGTH) {
            return new String(buf, start, len, StandardCharsets.UTF_8);
        }
        // The hash covers every byte, a word at a time (as the comparison below reads them): a
        // hash of a few sampled bytes made names that differ only elsewhere ("region_0000123_fwd")
        // share one probe chain, and 200k such names took quadratic time.
        long x = len * 0x9E3779B97F4A7C15L;
        int i0 = start;
        for (; i0 + 8 <= end; i0 += 8) {
            x = (x ^ (long) LONGS.get(buf, i0)) * 0xC2B2AE3D27D4EB4FL;
        }
        if (i0 < end) {
            if (len >= 8) {
                x = (x ^ (long) LONGS.get(buf, end - 8)) * 0x165667B19E3779F9L; // the last word, overlapping
            } else {
                for (; i0 < end; i0++) {
                    x = (x ^ buf[i0]) * 0x165667B19E3779F9L;
                }
            }
        }
        int h = (int) (x ^ (x >>> 32));
        int mask = strings.length - 1;
        int slot = (h ^ (h >>> 16) ^ (h >>> 7)) & mask; // mix(h), as rehash() places it
        for (String s; (s = strings[slot]) != null; slot = (slot + 1) & mask) {
            byte[] c = bytes[slot];
            if (hashes[slot] == h && c.length == len) {
                int i = 0;
                for (; i + 8 <= len; i += 8) { // a word at a time
                    if ((long) LONGS.get(c, i) != (long) LONGS.get(buf, start + i)) {
                        break;
                    }
                }
                while (i < len && c[i] == buf[start + i]) {
                    i++;
                }
                if (i == len) {
                    return s;
                }
            }
        }
        String s = new String(buf, start, len, StandardCharsets.UTF_8);
        if (size >= MAX_ENTRIES || longBytes + len > MAX_LONG_BYTES) {
            return s;
        }
        longBytes += len;
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
     * The longest distance of a long name from its home slot: what a lookup may have to probe. For
     * tests: it stays small for any set of names only when the hash sees every byte.
     */
    int longestProbe() {
        int mask = strings.length - 1;
        int longest = 0;
        for (int i = 0; i < strings.length; i++) {
            if (strings[i] != null) {
                longest = Math.max(longest, (i - (mix(hashes[i]) & mask)) & mask);
            }
        }
        return longest;
    }

    private static int mix(int h) {
        return h ^ (h >>> 16) ^ (h >>> 7);
    }

    private void growShort() {
        String[] oldS = shortStrings;
        long[] oldW = shortWords;
        byte[] oldL = shortLengths;
        shortStrings = new String[oldS.length * 2];
        shortWords = new long[oldW.length * 2];
        shortLengths = new byte[oldL.length * 2];
        int mask = shortStrings.length - 1;
        for (int i = 0; i < oldS.length; i++) {
            if (oldS[i] != null) {
                long w0 = oldW[2 * i];
                long w1 = oldW[2 * i + 1];
                long h = (w0 * 0x9E3779B97F4A7C15L) ^ (w1 * 0xC2B2AE3D27D4EB4FL) ^ oldL[i];
                int slot = (int) (h ^ (h >>> 32) ^ (h >>> 17)) & mask; // as intern() places it
                while (shortStrings[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                shortStrings[slot] = oldS[i];
                shortWords[2 * slot] = w0;
                shortWords[2 * slot + 1] = w1;
                shortLengths[slot] = oldL[i];
            }
        }
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
