package io.overlapanalyze.formats.json;

import java.io.InputStream;
import java.util.Random;

/**
 * A stream over a byte array that hands out only a few bytes per {@code read} (1 to
 * {@code maxChunk}, chosen by a seeded random), so that a reader's buffer ends at every possible
 * place: every token of a document then straddles a refill somewhere.
 */
public final class TrickleInputStream extends InputStream {
    private final byte[] data;
    private final Random random;
    private final int maxChunk;
    private int pos;

    public TrickleInputStream(byte[] data, long seed, int maxChunk) {
        this.data = data;
        this.random = new Random(seed);
        this.maxChunk = maxChunk;
    }

    @Override
    public int read() {
        return pos < data.length ? data[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (pos >= data.length) {
            return -1;
        }
        int n = Math.min(Math.min(len, 1 + random.nextInt(maxChunk)), data.length - pos);
        System.arraycopy(data, pos, b, off, n);
        pos += n;
        return n;
    }
}
