package io.overlapanalyze.formats.input;

/**
 * The input cannot be read as a trace. The message is one line for the user: it names the file
 * and says what is wrong (and where, when known); the CLI prints it and exits with code 2.
 */
public class TraceFormatException extends Exception {
    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
