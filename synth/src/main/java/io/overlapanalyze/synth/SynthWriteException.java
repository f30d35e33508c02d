package io.overlapanalyze.synth;

import java.io.IOException;
import java.nio.file.Path;

/** Writing {@link #where()} failed; the cause says why. */
public class SynthWriteException extends IOException {
    private final transient Path where;

    public SynthWriteException(Path where, IOException cause) {
        super(cause.getMessage(), cause);
        this.where = where;
    }

    /** The file or directory that could not be written. */
    public Path where() {
        return where;
    }
}
