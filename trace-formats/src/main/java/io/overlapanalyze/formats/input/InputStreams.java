package io.overlapanalyze.formats.input;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Opens trace files. Compression is detected from the content (gzip magic bytes {@code 1f 8b}),
 * never from the file name: profilers and users rename files freely ({@code .json} files that are
 * gzip, {@code .gz} files that are not).
 */
public final class InputStreams {
    private static final int BUFFER = 1 << 16;

    private InputStreams() {
    }

    /**
     * Opens {@code file} for reading, transparently decompressing gzip (including multi-member
     * gzip). The stream is buffered. Under {@link InputLimits#DEFAULT}: for tests and tools; a
     * reader opens with the limits of its {@link ReadOptions}.
     *
     * @throws EOFException when the file is gzip but ends inside the gzip header
     * @throws IOException  when the file cannot be opened or read
     */
    public static InputStream open(Path file) throws IOException {
        return open(file, InputLimits.DEFAULT);
    }

    /**
     * As {@link #open(Path)}, with explicit limits on what a compressed file may decompress to
     * (a gzip bomb is refused with {@link InputLimitExceededException} after a bounded amount of work).
     */
    public static InputStream open(Path file, InputLimits limits) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file), BUFFER);
        try {
            if (isGzip(raw)) {
                CountingInputStream compressed = new CountingInputStream(raw);
                InputStream decompressed = new LimitedInputStream(new GZIPInputStream(compressed, BUFFER),
                        file.toString(), limits, compressed::count);
                return new BufferedInputStream(decompressed, BUFFER);
            }
            if (Files.size(file) > limits.maxDecompressedBytes()) {
                throw new InputLimitExceededException(file + ": " + Files.size(file) + " bytes, over the input size "
                        + "limit of " + limits.maxDecompressedBytes() + " (raise it with --max-input-size)");
            }
            return raw;
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** True when the file starts with the gzip magic bytes. */
    public static boolean isGzip(Path file) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 16)) {
            return isGzip(in);
        }
    }

    /**
     * Reads up to {@code maxBytes} of the file's (decompressed) content, for format sniffing.
     * A truncated or corrupt gzip stream gives what could be decompressed before the damage.
     * Under {@link InputLimits#DEFAULT} (tests and tools).
     */
    public static byte[] head(Path file, int maxBytes) throws IOException {
        return head(file, maxBytes, InputLimits.DEFAULT);
    }

    /** As {@link #head(Path, int)}, opening under {@code limits} (a plain file over them is refused). */
    public static byte[] head(Path file, int maxBytes, InputLimits limits) throws IOException {
        byte[] buf = new byte[maxBytes];
        int n = 0;
        try (InputStream in = open(file, limits)) {
            while (n < maxBytes) {
                int r = in.read(buf, n, maxBytes - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (EOFException | java.util.zip.ZipException e) {
            // Damaged compression: sniff what we have.
        }
        return Arrays.copyOf(buf, n);
    }

    /** Peeks at the first two bytes of a mark-supporting stream without consuming them. */
    private static boolean isGzip(InputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b;
    }
}
