package io.overlapanalyze.formats.input;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Lines of a text file (a CSV of a profiler capture) with bounded memory whatever the file holds:
 * the file is opened through {@link InputStreams#open} (so {@code --max-input-size} applies, and
 * gzip), a line longer than {@link #MAX_LINE_BYTES} or holding a NUL byte is a
 * {@link DamagedFileException} naming the line. {@code BufferedReader.readLine} has no bound: a
 * 3 GB {@code memory_record.csv} of NUL bytes (what a crash leaves on many file systems: the size
 * was written, the blocks were not) is one 3 GB line, and an {@code OutOfMemoryError}.
 *
 * <p>Why 1 MiB: the longest lines the profilers write in the CSVs read here are about 100 bytes
 * ({@code memory_record.csv}: seven short fields); the widest CSV of a torch_npu capture
 * ({@code operator_details.csv}, with call stacks) has lines of a few KiB. 1 MiB is far above
 * any of them, and a line of it costs 2 MiB of heap as a {@code String}: bounded under any heap
 * the tool runs with.
 */
public final class BoundedLineReader implements Closeable {
    /** The longest line accepted, in bytes (without its line end). */
    public static final int MAX_LINE_BYTES = 1 << 20;

    /** A file that is not what its kind writes: a line too long, NUL bytes. The message says which line. */
    public static final class DamagedFileException extends IOException {
        public DamagedFileException(String message) {
            super(message);
        }
    }

    private final InputStream in;
    private final int maxLineBytes;
    private byte[] line = new byte[256];
    private long lineNumber;

    private BoundedLineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** Opens {@code file} under {@code limits} (the run's). */
    public static BoundedLineReader open(Path file, InputLimits limits) throws IOException {
        return new BoundedLineReader(InputStreams.open(file, limits), MAX_LINE_BYTES);
    }

    /**
     * The next line as UTF-8 without its {@code \n} or {@code \r\n}, or {@code null} at the end.
     *
     * @throws DamagedFileException a line over the bound, or a NUL byte
     */
    public String readLine() throws IOException {
        int n = 0;
        int b = in.read();
        if (b < 0) {
            return null;
        }
        lineNumber++;
        while (b >= 0 && b != '\n') {
            if (b == 0) {
                throw new DamagedFileException("line " + lineNumber + " holds NUL bytes (what a crash leaves where"
                        + " the file's blocks were never written): a damaged file");
            }
            if (n == maxLineBytes) {
                throw new DamagedFileException("line " + lineNumber + " is longer than " + maxLineBytes
                        + " bytes: a damaged file, or not this kind of file");
            }
            if (n == line.length) {
                line = Arrays.copyOf(line, Math.min(maxLineBytes, line.length * 2));
            }
            line[n++] = (byte) b;
            b = in.read();
        }
        if (n > 0 && line[n - 1] == '\r') {
            n--;
        }
        return new String(line, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
