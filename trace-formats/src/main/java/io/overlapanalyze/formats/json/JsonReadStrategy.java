package io.overlapanalyze.formats.json;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;

import java.io.IOException;

/**
 * How a JSON trace reader chooses between its two paths, the same for every such reader: a fast
 * path (a {@link Utf8JsonScanner} over the bytes, several threads on a big plain file) tried
 * first, and the reference path (Jackson) that decides whenever the fast path gives up.
 *
 * <p>The fast path takes on only a strict subset of what the reference path accepts, with the
 * same meaning, and throws {@link Unsupported} for anything else, every damaged or cut file
 * included; the reference path then reads the file from the start. So results, warnings, errors
 * and truncation flags are always the reference path's, and a good file costs one fast pass.
 *
 * <p>The fast path itself reads on several threads ({@link ParallelArrayScan}) when given a chunk
 * size; a guessed cut that falls inside an element ({@link ParallelArrayScan.Resequence}) makes it
 * read the file again on one thread.
 *
 * <p>Two system properties per format name {@code F}: {@code -Doverlap.F.scanner=jackson} reads
 * every file with the reference path only (to compare the two, or to rule the fast path out when
 * chasing a problem), and {@code -Doverlap.F.threads=N} sets the scan threads
 * ({@link ParallelArrayScan#threads}). The steps are called once per file, never per event.
 */
public final class JsonReadStrategy {
    /** One whole read of a file by one path. */
    @FunctionalInterface
    public interface Read<T> {
        T read() throws TraceFormatException, IOException;
    }

    /** One fast-path read: on {@code chunkBytes}-sized chunks in parallel, or on one thread when 0. */
    @FunctionalInterface
    public interface Scan<T> {
        T scan(int chunkBytes) throws IOException;
    }

    private final String format;
    private final boolean byteScanner;

    private JsonReadStrategy(String format, boolean byteScanner) {
        this.format = format;
        this.byteScanner = byteScanner;
    }

    /**
     * The strategy for the format named {@code format} ({@code kineto}, {@code ascend}), with its
     * {@code overlap.<format>.scanner} property read now (readers keep one in a static field).
     */
    public static JsonReadStrategy of(String format) {
        return new JsonReadStrategy(format, !"jackson".equals(System.getProperty("overlap." + format + ".scanner")));
    }

    /** False when {@code overlap.<format>.scanner=jackson}: the reference path reads every file. */
    public boolean byteScanner() {
        return byteScanner;
    }

    /** The fast path's threads: {@code overlap.<format>.threads} if set, else {@link ParallelArrayScan#threads}'s default. */
    public int threads() {
        return ParallelArrayScan.threads("overlap." + format + ".threads");
    }

    /** The fast path, unless switched off; when it gives up ({@link Unsupported}), the reference path. */
    public <T> T read(Read<T> fast, Read<T> reference) throws TraceFormatException, IOException {
        if (byteScanner) {
            try {
                return fast.read();
            } catch (Unsupported e) {
                // Outside the fast path's subset (damage, unusual JSON): the reference path decides.
            }
        }
        return reference.read();
    }

    /**
     * The fast path's read: in parallel when {@code chunkBytes} > 0, and again on one thread
     * ({@code scan(0)}) when a guessed cut was inside an element; else on one thread at once.
     */
    public static <T> T scan(int chunkBytes, Scan<T> scan) throws IOException {
        if (chunkBytes > 0) {
            try {
                return scan.scan(chunkBytes);
            } catch (ParallelArrayScan.Resequence e) {
                // a guessed cut was inside an element: read it again on one thread
            }
        }
        return scan.scan(0);
    }
}
