package io.overlapanalyze.formats.json;

import java.nio.charset.StandardCharsets;

/**
 * The field names a reader wants, matched as raw bytes: the id of a name is its index in the list
 * given to {@link #of}. A small open-addressing table keyed by the length and the first and last
 * bytes, then a byte-by-byte comparison: names are short, and most keys of a trace are one of a
 * few dozen, so a lookup is a hash of three bytes and one short loop.
 */
public final class KeyTable {
    private final byte[][] names;
    private final int[] ids;
    private final int mask;

    private KeyTable(byte[][] names, int[] ids) {
        this.names = names;
        this.ids = ids;
        this.mask = names.length - 1;
    }

    /** A table of {@code names} (ASCII, not empty); the id of {@code names[i]} is {@code i}. */
    public static KeyTable of(String... names) {
        int size = Integer.highestOneBit(Math.max(8, names.length * 4) - 1) << 1;
        byte[][] slots = new byte[size][];
        int[] ids = new int[size];
        for (int i = 0; i < names.length; i++) {
            byte[] b = names[i].getBytes(StandardCharsets.US_ASCII);
            if (b.length == 0) {
                throw new IllegalArgumentException("an empty key");
            }
            int slot = hash(b, 0, b.length) & (size - 1);
            while (slots[slot] != null) {
                slot = (slot + 1) & (size - 1);
            }
            slots[slot] = b;
            ids[slot] = i;
        }
        return new KeyTable(slots, ids);
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

    private static boolean same(byte[] name, byte[] b, int start) {
        for (int i = 0; i < name.length; i++) {
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
