package io.overlapanalyze.options;

/**
 * A problem with what the user gave us (a path, an option value, an input file). The CLI prints
 * its message as one line and exits with code 2; the stack trace only with {@code --debug}.
 */
public class UserInputException extends RuntimeException {
    public UserInputException(String message) {
        super(message);
    }

    public UserInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
