package io.overlapanalyze.formats.input;

import java.io.IOException;

/**
 * A file decompressed past an {@link InputLimits} bound. An {@link IOException} so it stops any
 * reader at once, wherever it is; its message is the one line the user sees.
 */
public class InputLimitExceededException extends IOException {
    public InputLimitExceededException(String message) {
        super(message);
    }
}
