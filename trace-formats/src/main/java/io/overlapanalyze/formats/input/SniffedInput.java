package io.overlapanalyze.formats.input;

import java.nio.charset.StandardCharsets;
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
