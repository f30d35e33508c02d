package io.overlapanalyze.synth;

/** A request the generator cannot honour as asked (bad option, unknown scenario): the user's to fix. */
public class SynthInputException extends IllegalArgumentException {
    public SynthInputException(String message) {
        super(message);
    }

    public SynthInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
