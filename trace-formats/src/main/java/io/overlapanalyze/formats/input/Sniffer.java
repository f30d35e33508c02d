package io.overlapanalyze.formats.input;

import java.io.IOException;
import java.nio.file.Path;

/**
 * How the front door opens an input to tell what it is: {@link SniffedInput#of} unless a caller
 * watches it (a test that counts the opens).
 */
@FunctionalInterface
public interface Sniffer {
    /** The standard way: {@link SniffedInput#of}. */
    Sniffer STANDARD = SniffedInput::of;

    SniffedInput sniff(Path input, InputLimits limits) throws IOException;
}
