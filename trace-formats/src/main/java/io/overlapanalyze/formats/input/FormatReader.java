package io.overlapanalyze.formats.input;

import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One trace format as the front door ({@code io.overlapanalyze.formats.TraceFormats}) sees it: how
 * its inputs are found in a directory, how one is recognised from its sniffed content, and how it
 * is read. Each reader package has one; the front door keeps them in one registry and asks them in
 * order, so a new format is a new reader package with its {@code FormatReader} and one registry entry.
 */
public interface FormatReader {
    /**
     * Whether a file of this name, found by walking a directory, may be one of this format's
     * inputs (the content still decides). A directory walk reads the files some reader accepts.
     */
    default boolean acceptsFileName(String fileName) {
        return false;
    }

    /**
     * What {@link #acceptsFileName} and {@link #isInputDirectory} accept, for the message about a
     * directory that holds no trace ({@code "*.sqlite"}); empty when this format adds nothing.
     */
    String inputNames();

    /**
     * The format as a user knows it, for the line that refuses a file no reader recognises
     * ({@code "an Nsight Systems SQLite export"}); empty when the format is not named there.
     */
    default String formatName() {
        return "";
    }

    /** Whether a directory is one input of this format, read as a whole (an Ascend capture). */
    default boolean isInputDirectory(Path dir) {
        return false;
    }

    /**
     * Whether this format takes only what no other format recognises: any SQLite database that is
     * not another format's is an Nsight export, whose reader then says what is missing.
     */
    default boolean isFallback() {
        return false;
    }

    /** Whether this reader reads the input, by its content (never by its name: users rename files). */
    boolean recognises(SniffedInput input) throws IOException;

    /**
     * Reads a recognised input. A file may hold several ranks (an Nsight export of a torchrun job).
     *
     * @throws TraceFormatException when the input is not a readable trace of this format; its message
     *                              names the file (the front door makes it one line)
     * @throws IOException          when the file cannot be read at all
     */
    List<RankTrace> read(SniffedInput input, ReadOptions options) throws TraceFormatException, IOException;

    /**
     * What the user is told when {@link #read} failed: {@code oneLine}, the reader's error made one
     * line, or a better line naming the file (Ascend says what a bare JSON array that is no
     * timeline is). Whatever it returns is the message the user sees, unchanged.
     */
    default TraceFormatException explain(SniffedInput input, TraceFormatException oneLine) {
        return oneLine;
    }
}
