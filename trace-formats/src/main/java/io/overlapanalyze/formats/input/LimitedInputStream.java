package io.overlapanalyze.formats.input;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongSupplier;

/**
 * Counts the bytes a decompressing stream produces and stops with
 * {@link InputLimitExceededException} when they pass the size limit or, after a grace amount,
 * the compression ratio limit measured against the compressed bytes consumed so far.
 */
final class LimitedInputStream extends FilterInputStream {
    private final String file;
    private final InputLimits limits;
    private final LongSupplier compressedConsumed;
    private long produced;

    LimitedInputStream(InputStream decompressed, String file, InputLimits limits, LongSupplier compressedConsumed) {
        super(decompressed);
        this.file = file;
        this.limits = limits;
        this.compressedConsumed = compressedConsumed;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    /**
     * Nothing is promised as available: a {@link java.io.BufferedInputStream} above then returns
     * what one read gave instead of reading on, so when a cut gzip stream fails, the bytes already
     * decompressed reach the reader (which analyses them as a truncated trace) instead of being
     * dropped with the exception (a cut file with under 64 KiB left read as empty).
     */
    @Override
    public int available() {
        return 0;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        if (skipped > 0) {
            count(skipped);
        }
        return skipped;
    }

    private void count(long n) throws InputLimitExceededException {
        produced += n;
        if (produced > limits.maxDecompressedBytes()) {
            throw new InputLimitExceededException(file + ": decompresses to more than "
                    + limits.maxDecompressedBytes() + " bytes, the input size limit (raise it with --max-input-size)");
        }
        if (produced > InputLimits.RATIO_GRACE_BYTES) {
            long compressed = Math.max(1, compressedConsumed.getAsLong());
            if (produced / compressed > limits.maxRatio()) {
                throw new InputLimitExceededException(file + ": decompresses more than " + limits.maxRatio()
                        + " times its compressed size (" + compressed + " bytes gave over " + produced
                        + "): a gzip bomb or not a trace (raise the limit with --max-ratio)");
            }
        }
    }
}
