package io.overlapanalyze.options;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.pipeline.PipelineInputException;

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

    /**
     * Whether {@code t} is a problem with the user's input, which every launcher prints as one line
     * with exit code 2: from the launcher's own checks, the pipeline or the reading front door.
     */
    public static boolean isInputProblem(Throwable t) {
        return t instanceof UserInputException || t instanceof PipelineInputException
                || t instanceof TraceFormatException;
    }
}
