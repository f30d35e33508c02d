package io.overlapanalyze.synth;

import java.io.IOException;
import java.util.List;

/**
 * One kind of scenario the generator writes ({@link SynthWriters}): which requests it takes, the
 * built-ins it offers, and how it writes them.
 */
public interface SynthWriter {
    /** Whether this writer takes the request (its scenario is one of this writer's kind). */
    boolean takes(SynthRequest request);

    /** One line per built-in scenario of this kind: its name, two spaces, what it is. */
    List<String> builtins();

    /**
     * Writes the request.
     *
     * @throws SynthInputException the request cannot be written as asked
     * @throws SynthWriteException a file could not be written
     */
    Written write(SynthRequest request, SynthOutput output) throws IOException;
}
