package io.overlapanalyze.formats.input;

import java.nio.charset.StandardCharsets;

/**
 * Tells the format of an input by its content, never by its name: users rename files, and a
 * {@code .json} may well be gzip. The front door sniffs each input once ({@link SniffedInput#of})
 * and hands what it found to the reader.
 */
public final class FormatDetector {
    private static final int SNIFF_BYTES = 64 * 1024;
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private FormatDetector() {
    }

    /** What the first bytes of a file say it is. */
    public enum Content {
        /**
         * A top-level JSON object (its first non-blank byte is <code>{</code>): a Kineto / Chrome
         * trace, a Flight Recorder dump's JSON variant, or any other JSON object; the readers tell
         * which from the head.
         */
        JSON_OBJECT,
        /** A top-level JSON array (Ascend timelines are bare arrays of events). */
        JSON_ARRAY,
        /** An SQLite database (Nsight export, Ascend DB export). */
        SQLITE,
        /** Zero bytes, or only whitespace. */
        EMPTY,
        /** Something else. */
        UNKNOWN,
        /** A directory: some readers take a capture directory as one input. */
        DIRECTORY
    }

    /** How many bytes of a file's head {@link #sniff(byte[])} looks at. */
    public static final int HEAD_BYTES = SNIFF_BYTES;

    /** What a file's first bytes ({@link #HEAD_BYTES} of them, decompressed) say it is. */
    public static Content sniff(byte[] head) {
        if (startsWith(head, SQLITE_MAGIC)) {
            return Content.SQLITE;
        }
        int i = 0;
        // Skip a UTF-8 byte-order mark and whitespace.
        if (head.length >= 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf) {
            i = 3;
        }
        while (i < head.length && Character.isWhitespace(head[i])) {
            i++;
        }
        if (i == head.length) {
            return Content.EMPTY;
        }
        if (head[i] == '{') {
            return Content.JSON_OBJECT;
        }
        if (head[i] == '[') {
            return Content.JSON_ARRAY;
        }
        return Content.UNKNOWN;
    }

    private static boolean startsWith(byte[] data, byte[] prefix) {
        if (data.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (data[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
