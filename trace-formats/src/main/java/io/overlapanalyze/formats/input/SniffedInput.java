package io.overlapanalyze.formats.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An input as the readers are offered it: its path, what its first bytes say ({@link FormatDetector})
 * and those bytes (decompressed; empty for a directory).
 *
 * @param path    the file or directory
 * @param content what the head says; {@link FormatDetector.Content#DIRECTORY} for a directory
 * @param head    up to {@link FormatDetector#HEAD_BYTES} first bytes, through gzip when it is gzip
 */
public record SniffedInput(Path path, FormatDetector.Content content, byte[] head) {
    public SniffedInput {
        head = head.clone();
    }

    /**
     * Sniffs {@code input}: the one place an input is opened to be told apart, by the front door
     * ({@code TraceFormats}); a reader is handed what it found and never sniffs again. A directory
     * is not opened. Opened under {@code limits}: a plain file over them is refused here.
     */
    public static SniffedInput of(Path input, InputLimits limits) throws IOException {
        if (Files.isDirectory(input)) {
            return new SniffedInput(input, FormatDetector.Content.DIRECTORY, new byte[0]);
        }
        byte[] head = InputStreams.head(input, FormatDetector.HEAD_BYTES, limits);
        return new SniffedInput(input, FormatDetector.sniff(head), head);
    }

    @Override
    public byte[] head() {
        return head.clone();
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
