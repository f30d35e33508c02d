package io.overlapanalyze.synth;

/**
 * A scenario file or definition is wrong. The message is one line for the user: the source,
 * the field path ({@code backward[1].bucket.commUs}) and what is wrong.
 */
public class ScenarioException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ScenarioException(String message) {
        super(message);
    }

    public ScenarioException(String message, Throwable cause) {
        super(message, cause);
    }
}
