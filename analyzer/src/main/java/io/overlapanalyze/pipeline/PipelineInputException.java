package io.overlapanalyze.pipeline;

/**
 * What the caller gave the pipeline cannot be analysed: a path or input file (the reading error,
 * as its cause), a rank regex, a step selection that is malformed or matches nothing. The message
 * is one line for the user, naming the file or the value; the CLI prints it and exits with code 2.
 */
public class PipelineInputException extends RuntimeException {
    public PipelineInputException(String message) {
        super(message);
    }

    public PipelineInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
