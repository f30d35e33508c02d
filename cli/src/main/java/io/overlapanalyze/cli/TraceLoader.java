package io.overlapanalyze.cli;

import io.overlapanalyze.formats.FormatDetector;
import io.overlapanalyze.formats.TraceFormatException;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Turns the paths a user typed into rank traces: checks them, expands directories, picks the
 * reader by content, and converts every failure into one line naming the file.
 */
public final class TraceLoader {
    private TraceLoader() {
    }

    /** The files a path stands for: itself, or the trace files below a directory. */
    public static List<Path> expand(Path path) {
        return expand(path, null);
    }

    /**
     * The files a path stands for: itself; the files below a directory (recursively) whose name
     * {@code nameFilter} accepts (default: *.json, *.json.gz); or, for a path that does not
     * exist and holds glob characters ({@code traces/rank-*.json.gz}, quoted so the shell leaves
     * it alone), the matching files.
     */
    public static List<Path> expand(Path path, PathMatcher nameFilter) {
        if (!Files.exists(path) && isGlob(path.toString())) {
            return expandGlob(path.toString(), nameFilter);
        }
        if (!Files.exists(path)) {
            throw new UserInputException(path + ": no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            List<Path> files = walk.filter(Files::isRegularFile)
                    .filter(p -> nameFilter != null ? nameFilter.matches(p.getFileName())
                            : isTraceFileName(p.getFileName().toString()))
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new UserInputException(path + ": directory holds no trace files ("
                        + (nameFilter != null ? "none matches the name filter" : "*.json, *.json.gz") + ")");
            }
            return files;
        } catch (IOException e) {
            throw new UserInputException(path + ": cannot list directory: " + e.getMessage(), e);
        }
    }

    static boolean isGlob(String s) {
        return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0 || s.indexOf('{') >= 0;
    }

    /** Walks from the longest glob-free leading directory and keeps the files the whole pattern matches. */
    private static List<Path> expandGlob(String pattern, PathMatcher nameFilter) {
        Path full = Path.of(pattern);
        Path base = full.isAbsolute() ? full.getRoot() : Path.of("");
        int depth = 0;
        boolean inGlob = false;
        for (Path part : full) {
            if (!inGlob && !isGlob(part.toString())) {
                base = base.resolve(part);
            } else {
                inGlob = true;
                depth++;
            }
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        boolean relativeToHere = base.toString().isEmpty();
        Path start = relativeToHere ? Path.of(".") : base;
        if (!Files.isDirectory(start)) {
            throw new UserInputException(pattern + ": no such directory " + start);
        }
        int maxDepth = pattern.contains("**") ? Integer.MAX_VALUE : depth;
        try (Stream<Path> walk = Files.walk(start, maxDepth)) {
            List<Path> files = walk.filter(Files::isRegularFile)
                    .map(p -> relativeToHere ? start.relativize(p) : p)
                    .filter(matcher::matches)
                    .filter(p -> nameFilter == null || nameFilter.matches(p.getFileName()))
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new UserInputException(pattern + ": no file matches");
            }
            return files;
        } catch (IOException e) {
            throw new UserInputException(pattern + ": cannot list " + start + ": " + e.getMessage(), e);
        }
    }

    static boolean isTraceFileName(String name) {
        return name.endsWith(".json") || name.endsWith(".json.gz");
    }

    /** Reads one file into its rank traces. */
    public static List<RankTrace> load(Path file) {
        if (Files.isDirectory(file)) {
            throw new UserInputException(file + ": is a directory");
        }
        if (!Files.isReadable(file)) {
            throw new UserInputException(file + (Files.exists(file) ? ": permission denied" : ": no such file"));
        }
        try {
            FormatDetector.Content content = FormatDetector.sniff(file);
            switch (content) {
                case EMPTY:
                    throw new UserInputException(file + ": file is empty");
                case KINETO_JSON:
                    return new KinetoReader().read(file);
                case SQLITE:
                    throw new UserInputException(file + ": SQLite databases (Nsight Systems / Ascend DB exports) "
                            + "are not supported by this version; export a PyTorch profiler trace instead");
                case JSON_ARRAY:
                    throw new UserInputException(file + ": a top-level JSON array is not a PyTorch profiler trace "
                            + "(expected an object with \"traceEvents\"); Ascend timelines are not supported by this version");
                default:
                    throw new UserInputException(file + ": not a trace this tool reads "
                            + "(expected PyTorch profiler JSON, optionally gzip-compressed)");
            }
        } catch (TraceFormatException e) {
            throw new UserInputException(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new UserInputException(file + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new UserInputException(file + ": permission denied", e);
        } catch (IOException e) {
            throw new UserInputException(file + ": cannot read: " + oneLine(e), e);
        }
    }

    /** Expands and loads every path, in order. */
    public static List<RankTrace> loadAll(List<Path> paths) {
        List<RankTrace> traces = new ArrayList<>();
        for (Path p : paths) {
            for (Path f : expand(p)) {
                traces.addAll(load(f));
            }
        }
        return traces;
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ").trim();
    }
}
