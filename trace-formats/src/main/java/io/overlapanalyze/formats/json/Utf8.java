package io.overlapanalyze.formats.json;

/**
 * Strict UTF-8 well-formedness (Unicode Table 3-7): no overlong forms, no encoded surrogates,
 * nothing above U+10FFFF. Stricter than a decoder that replaces bad bytes: the scanner gives up on
 * anything else ({@link Utf8JsonScanner.Unsupported}) and the reader's reference path decides.
 */
final class Utf8 {
    private Utf8() {
    }

    /** Checks {@code b[start, end)}; throws {@link Utf8JsonScanner.Unsupported} when it is not well-formed. */
    static void validate(byte[] b, int start, int end) {
        int i = start;
        while (i < end) {
            if (b[i] >= 0) {
                i++;
            } else {
                i += sequenceLength(b, i, end);
            }
        }
    }

    /** The length of the well-formed multi-byte sequence at {@code b[i]}, or {@link Utf8JsonScanner.Unsupported}. */
    static int sequenceLength(byte[] b, int i, int end) {
        int c = b[i] & 0xff;
        int n;
        int lo = 0x80;
        int hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            if (c == 0xe0) {
                lo = 0xa0;
            } else if (c == 0xed) {
                hi = 0x9f;
            }
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            if (c == 0xf0) {
                lo = 0x90;
            } else if (c == 0xf4) {
                hi = 0x8f;
            }
        } else {
            throw new Utf8JsonScanner.Unsupported("invalid UTF-8");
        }
        if (i + n > end) {
            throw new Utf8JsonScanner.Unsupported("invalid UTF-8");
        }
        int second = b[i + 1] & 0xff;
        if (second < lo || second > hi) {
            throw new Utf8JsonScanner.Unsupported("invalid UTF-8");
        }
        for (int k = 2; k < n; k++) {
            int cont = b[i + k] & 0xff;
            if (cont < 0x80 || cont > 0xbf) {
                throw new Utf8JsonScanner.Unsupported("invalid UTF-8");
            }
        }
        return n;
    }
}
