package io.overlapanalyze.formats.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The field names a reader wants, matched as raw bytes: the id of a name is its index in the list
 * given to {@link #of}. Looked up by length first, then by the name's first 8 bytes read as one
 * {@code long} (most names are no longer; the rest is compared after), which is twice as fast as
 * {@code Arrays.equals} on names this short. A table holds a few dozen ASCII names at most.
 */
public final class KeyTable {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[][][] byLength;
    private final long[][] wordsByLength;
    private final int[][] idsByLength;

    private KeyTable(byte[][][] byLength, long[][] wordsByLength, int[][] idsByLength) {
        this.byLength = byLength;
        this.wordsByLength = wordsByLength;
        this.idsByLength = idsByLength;
    }

    /** A table of {@code names} (ASCII); the id of {@code names[i]} is {@code i}. */
    public static KeyTable of(String... names) {
        int max = 0;
        for (String n : names) {
            max = Math.max(max, n.length());
        }
        byte[][][] byLength = new byte[max + 1][][];
        long[][] words = new long[max + 1][];
        int[][] ids = new int[max + 1][];
        for (int i = 0; i < names.length; i++) {
            byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
            int len = b.length;
            int k = byLength[len] == null ? 0 : byLength[len].length;
            byLength[len] = Arrays.copyOf(byLength[len] == null ? new byte[0][] : byLength[len], k + 1);
            words[len] = Arrays.copyOf(words[len] == null ? new long[0] : words[len], k + 1);
            ids[len] = Arrays.copyOf(ids[len] == null ? new int[0] : ids[len], k + 1);
            byLength[len][k] = b;
            words[len][k] = firstWord(b, 0, len);
            ids[len][k] = i;
        }
        return new KeyTable(byLength, words, ids);
    }

    /** The id of the name {@code b[start, end)}, or -1. */
    int find(byte[] b, int start, int end) {
        int len = end - start;
        if (len >= byLength.length) {
            return -1;
        }
        long[] words = wordsByLength[len];
        if (words == null) {
            return -1;
        }
        long w = firstWord(b, start, len);
        for (int k = 0; k < words.length; k++) {
            if (words[k] == w && (len <= 8 || Arrays.equals(b, start + 8, end, byLength[len][k], 8, len))) {
                return idsByLength[len][k];
            }
        }
        return -1;
    }

    /** Up to the first 8 bytes of {@code b[start, start + len)}, little-endian, zero above the name. */
    private static long firstWord(byte[] b, int start, int len) {
        int n = Math.min(len, 8);
        if (start + 8 <= b.length) {
            long w = (long) LONGS.get(b, start);
            return n == 8 ? w : w & ((1L << (n << 3)) - 1);
        }
        long w = 0;
        for (int i = n - 1; i >= 0; i--) {
            w = (w << 8) | (b[start + i] & 0xff);
        }
        return w;
    }
}
