package io.overlapanalyze.synth;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the generator's files go: the caller decides how a file is put in place (the CLI checks that
 * it never replaces an input and renames it in whole), the generator only fills it.
 */
public interface SynthOutput {
    /** Fills a stream. */
    @FunctionalInterface
    interface StreamBody {
        void write(OutputStream out) throws IOException;
    }

    /** Fills a fresh file (SQLite needs a file, not a stream). */
    @FunctionalInterface
    interface FileBody {
        void write(Path file) throws IOException;
    }

    /** Writes {@code target} from a stream, never over one of {@code inputs}. */
    void stream(Path target, List<Path> inputs, StreamBody body);

    /** Writes {@code target} as a whole file, never over one of {@code inputs}. */
    void file(Path target, List<Path> inputs, FileBody body) throws IOException;

    /** Called before the generator opens its first SQLite database (the caller may set up the native library). */
    default void beforeSqlite() {
    }
}
