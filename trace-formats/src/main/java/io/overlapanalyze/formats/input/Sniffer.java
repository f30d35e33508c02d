package io.overlapanalyze.formats.input;

import java.io.IOException;
import java.io.InputStream;
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

    /**
     * Opens an input again, from its start, when its sniffed head could not tell what it is (rare: a
     * JSON object whose deciding keys lie past the head). Here, beside {@link #sniff}, so that every
     * open that tells a file apart goes through one seam.
     */
    default InputStream readOn(Path input, InputLimits limits) throws IOException {
        return InputStreams.open(input, limits);
    }
}
