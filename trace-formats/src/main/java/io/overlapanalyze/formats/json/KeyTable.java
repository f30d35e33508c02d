package io.overlapanalyze.formats.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The field names a reader wants, matched as raw bytes: the id of a name is its index in the list
 * given to {@link #of}. Two small open-addressing tables:
 * <ul>
 *   <li>names of 1 to 8 bytes (most keys of a trace: {@code ph}, {@code name}, {@code ts}) by their
 *       bytes read as one little-endian word, zero above the name ({@link #findShort}): a lookup is
 *       a multiply and one comparison of words (a name has no zero byte, so the word also tells
 *       its length);</li>
 *   <li>longer names by a hash of their length and first and last bytes, then a comparison
 *       ({@link #find}).</li>
 * </ul>
 */
public final class KeyTable {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private final byte[][] names;
    private final int[] ids;
    private final int mask;
    /** The short names as words (0: an empty slot; no name has a zero byte) and their ids. */
    private final long[] shortWords;
    private final int[] shortIds;
    private final int shortShift;
    private final int count;

    private KeyTable(byte[][] names, int[] ids, long[] shortWords, int[] shortIds, int count) {
        this.names = names;
        this.ids = ids;
        this.mask = names.length - 1;
        this.shortWords = shortWords;
        this.shortIds = shortIds;
        this.shortShift = 64 - Integer.numberOfTrailingZeros(shortWords.length);
        this.count = count;
    }

    /** How many names it was made of (ids are 0 to size - 1). */
    int size() {
        return count;
    }

    /** A table of {@code names} (ASCII, not empty); the id of {@code names[i]} is {@code i}. */
    public static KeyTable of(String... names) {
        int size = Integer.highestOneBit(Math.max(8, names.length * 4) - 1) << 1;
        byte[][] slots = new byte[size][];
        int[] ids = new int[size];
        long[] words = new long[size];
        int[] wordIds = new int[size];
        int shift = 64 - Integer.numberOfTrailingZeros(size);
        for (int i = 0; i < names.length; i++) {
            byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
            if (b.length == 0) {
                throw new IllegalArgumentException("an empty key");
            }
            for (byte c : b) {
                if (c < 0x20 || c == '"' || c == '\\') {
                    throw new IllegalArgumentException("a key the scanner never matches: " + names[i]);
                }
            }
            int slot = hash(b, 0, b.length) & (size - 1);
            while (slots[slot] != null) {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = b;
            ids[slot] = i;
            if (b.length <= 8) {
                long w = word(b, 0, b.length);
                int wordSlot = wordSlot(w, shift);
                while (words[wordSlot] != 0 && words[wordSlot] != w) {
                    wordSlot = (wordSlot + 1) & (size - 1);
                }
                if (words[wordSlot] == 0) { // a repeated name keeps its first id, as in the other table
                    words[wordSlot] = w;
                    wordIds[wordSlot] = i;
                }
            }
        }
        return new KeyTable(slots, ids, words, wordIds, names.length);
    }

    /** {@code b[start, start + len)} (len ≤ 8) as a little-endian word, zero above. */
    static long word(byte[] b, int start, int len) {
        long w = 0;
        for (int i = len - 1; i >= 0; i--) {
            w = (w << 8) | (b[start + i] & 0xff);
        }
        return w;
    }

    private static int wordSlot(long word, int shift) {
        return (int) ((word * 0x9E3779B97F4A7C15L) >>> shift);
    }

    /**
     * The id of the name of 1 to 8 bytes whose bytes, as a little-endian word, are {@code word}
     * (zero above the name), or -1.
     */
    int findShort(long word) {
        int m = shortWords.length - 1;
        for (int slot = wordSlot(word, shortShift); ; slot = (slot + 1) & m) {
            long w = shortWords[slot];
            if (w == word) {
                return shortIds[slot];
            }
            if (w == 0) {
                return -1;
            }
        }
    }

    /** The id of the name {@code b[start, end)}, or -1. */
    int find(byte[] b, int start, int end) {
        int len = end - start;
        if (len == 0) {
            return -1;
        }
        for (int slot = hash(b, start, len) & mask; ; slot = (slot + 1) & mask) {
            byte[] name = names[slot];
            if (name == null) {
                return -1;
            }
            if (name.length == len && same(name, b, start)) {
                return ids[slot];
            }
        }
    }

    /** {@code name} equals {@code b[start, start + name.length)}; a word at a time from 8 bytes on. */
    private static boolean same(byte[] name, byte[] b, int start) {
        int n = name.length;
        if (n >= 8) {
            for (int i = 0; i < n - 8; i += 8) {
                if ((long) LONGS.get(name, i) != (long) LONGS.get(b, start + i)) {
                    return false;
                }
            }
            return (long) LONGS.get(name, n - 8) == (long) LONGS.get(b, start + n - 8); // the last 8, overlapping
        }
        for (int i = 0; i < n; i++) {
            if (name[i] != b[start + i]) {
                return false;
            }
        }
        return true;
    }

    private static int hash(byte[] b, int start, int len) {
        int h = len * 31 + b[start];
        h = h * 31 + b[start + len - 1];
        return h ^ (h >>> 5);
    }
}
