package io.overlapanalyze.formats.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The field names a reader wants, matched as raw bytes: the id of a name is its index in the list
 * given to {@link #of}. Looked up by length first, then by a vectorised byte comparison; a table
 * holds a few dozen ASCII names at most.
 */
public final class KeyTable {
    private final byte[][][] byLength;
    private final int[][] idsByLength;

    private KeyTable(byte[][][] byLength, int[][] idsByLength) {
        this.byLength = byLength;
        this.idsByLength = idsByLength;
    }

    /** A table of {@code names} (ASCII); the id of {@code names[i]} is {@code i}. */
    public static KeyTable of(String... names) {
        int max = 0;
        for (String n : names) {
            max = Math.max(max, n.length());
        }
        byte[][][] byLength = new byte[max + 1][][];
        int[][] ids = new int[max + 1][];
        for (int i = 0; i < names.length; i++) {
            byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
            int len = b.length;
            byte[][] old = byLength[len] == null ? new byte[0][] : byLength[len];
            int[] oldIds = ids[len] == null ? new int[0] : ids[len];
            byLength[len] = Arrays.copyOf(old, old.length + 1);
            byLength[len][old.length] = b;
            ids[len] = Arrays.copyOf(oldIds, oldIds.length + 1);
            ids[len][oldIds.length] = i;
        }
        return new KeyTable(byLength, ids);
    }

    /** The id of the name {@code b[start, end)}, or -1. */
    int find(byte[] b, int start, int end) {
        int len = end - start;
        if (len >= byLength.length) {
            return -1;
        }
        byte[][] candidates = byLength[len];
        if (candidates == null) {
            return -1;
        }
        for (int k = 0; k < candidates.length; k++) {
            if (Arrays.equals(b, start, end, candidates[k], 0, len)) {
                return idsByLength[len][k];
            }
        }
        return -1;
    }
}
