package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.options.UserInputException;

import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;

/**
 * The CLI's calls of the reading front door ({@link TraceFormats#standard()}): the same calls, with
 * a {@link TraceFormatException} turned into a {@link UserInputException} of the same one line
 * (exit 2).
 */
public final class TraceLoader {
    private TraceLoader() {
    }

    /** The inputs a path stands for ({@link TraceFormats#expand(Path)}). */
    public static List<Path> expand(Path path) {
        return expand(path, null);
    }

    /** The files a path stands for under a name filter ({@link TraceFormats#expand(Path, PathMatcher)}). */
    public static List<Path> expand(Path path, PathMatcher nameFilter) {
        try {
            return TraceFormats.standard().expand(path, nameFilter);
        } catch (TraceFormatException e) {
            throw mapped(e);
        }
    }

    /** Reads one input into its rank traces. */
    public static List<RankTrace> load(Path file) {
        try {
            return TraceFormats.standard().read(file, ReadOptions.DEFAULT);
        } catch (TraceFormatException e) {
            throw mapped(e);
        }
    }

    /** Expands and reads every path, in order. */
    public static List<RankTrace> loadAll(List<Path> paths) {
        try {
            return TraceFormats.standard().readAll(paths, ReadOptions.DEFAULT);
        } catch (TraceFormatException e) {
            throw mapped(e);
        }
    }

    private static UserInputException mapped(TraceFormatException e) {
        return new UserInputException(e.getMessage(), e);
    }
}
