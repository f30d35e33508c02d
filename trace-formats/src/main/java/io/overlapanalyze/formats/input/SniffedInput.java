package io.overlapanalyze.formats.input;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.ZipException;

/**
 * An input as the readers are offered it: its path, what its first bytes say ({@link FormatDetector})
 * and those bytes (decompressed; empty for a directory). The front door sniffs each input once and
 * hands this to the reader (and to its own not-a-trace check); no reader opens the file to sniff it again.
 *
 * @param path    the file or directory
 * @param content what the head says; {@link FormatDetector.Content#DIRECTORY} for a directory
 * @param head    up to {@link FormatDetector#HEAD_BYTES} first bytes, through gzip when it is gzip
 * @param whole   the head is the file's whole (decompressed) content, read to a clean end; {@code false}
 *                when more may follow or the compression was damaged
 */
public record SniffedInput(Path path, FormatDetector.Content content, byte[] head, boolean whole) {
    public SniffedInput {
        head = head.clone();
    }

    /** An input whose head may not be all of it. */
    public SniffedInput(Path path, FormatDetector.Content content, byte[] head) {
        this(path, content, head, false);
    }

    /**
     * Sniffs {@code input}: how the front door ({@code TraceFormats}) opens an input to tell it
     * apart, once. A directory is not opened. Opened under {@code limits}: a plain file over them is
     * refused here ({@link InputLimitExceededException}). A truncated or corrupt gzip stream gives
     * what could be decompressed before the damage.
     */
    public static SniffedInput of(Path input, InputLimits limits) throws IOException {
        if (Files.isDirectory(input)) {
            return new SniffedInput(input, FormatDetector.Content.DIRECTORY, new byte[0], false);
        }
        byte[] buf = new byte[FormatDetector.HEAD_BYTES];
        int n = 0;
        boolean whole = false;
        try (InputStream in = InputStreams.open(input, limits)) {
            while (n < buf.length) {
                int r = in.read(buf, n, buf.length - n);
                if (r < 0) {
                    whole = true;
                    break;
                }
                n += r;
            }
        } catch (EOFException | ZipException e) {
            // Damaged compression: sniff what we have.
        }
        byte[] head = n == buf.length ? buf : Arrays.copyOf(buf, n);
        return new SniffedInput(input, FormatDetector.sniff(head), head, whole);
    }

    @Override
    public byte[] head() {
        return head.clone();
    }

    /** The head to parse, without a copy (every file of a job is sniffed by several readers). */
    public InputStream headStream() {
        return new ByteArrayInputStream(head);
    }

    /** The head as text, a byte a char (ISO-8859-1), to look for ASCII markers without a copy of the bytes. */
    public String headLatin1() {
        return new String(head, StandardCharsets.ISO_8859_1);
    }

    /** Whether the (decompressed) file starts with {@code text} (US-ASCII). */
    public boolean startsWith(String text) {
        byte[] prefix = text.getBytes(StandardCharsets.US_ASCII);
        if (head.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (head[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
