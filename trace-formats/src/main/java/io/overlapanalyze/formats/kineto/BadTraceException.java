package io.overlapanalyze.formats.kineto;

/**
 * Internal: a value in the trace has a type or form the reader cannot use. The reader turns it
 * into a one-line {@link io.overlapanalyze.formats.input.TraceFormatException} naming the file and the
 * position.
 */
final class BadTraceException extends RuntimeException {
    BadTraceException(String message) {
        super(message, null, false, false);
    }
}
