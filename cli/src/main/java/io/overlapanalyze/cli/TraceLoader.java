package io.overlapanalyze.cli;

import io.overlapanalyze.formats.FormatDetector;
import io.overlapanalyze.formats.InputLimitExceededException;
import io.overlapanalyze.formats.TraceFormatException;
import io.overlapanalyze.formats.ascend.AscendReader;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.formats.kineto.KernelClassifier;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the paths a user typed into rank traces: checks them, expands directories, picks the
 * reader by content, and converts every failure into one line naming the file.
 */
public final class TraceLoader {
    private TraceLoader() {
    }

    /**
     * The inputs a path stands for: itself, or the trace files below a directory. An Ascend
     * capture directory ({@code *_ascend_pt}, {@code PROF_*}) is one input, read as a whole: its
     * loose JSON files (profiler_info, communication.json) are not traces.
     */
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
        if (AscendReader.isCaptureDirectory(path)) {
            return List.of(path);
        }
        try {
            List<Path> found = new ArrayList<>();
            Files.walkFileTree(path, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!dir.equals(path) && AscendReader.isCaptureDirectory(dir)) {
                        found.add(dir);
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    boolean wanted = nameFilter != null ? nameFilter.matches(file.getFileName())
                            : isTraceFileName(file.getFileName().toString());
                    if (attrs.isRegularFile() && wanted) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            if (found.isEmpty()) {
                throw new UserInputException(path + ": directory holds no trace files (" + (nameFilter != null
                        ? "none matches the name filter" : "*.json, *.json.gz, *.sqlite, Ascend *_ascend_pt or PROF_* "
                        + "directories") + ")");
            }
            found.sort(null);
            return found;
        } catch (IOException e) {
            throw new UserInputException(path + ": cannot list directory: " + e.getMessage(), e);
        }
    }

    /**
     * Everything the paths make a command read, for {@link SafeOutput}: the paths as typed (a
     * directory counts whole, with every file below it) and the files they expand to.
     */
    public static List<Path> inputsOf(List<Path> paths) {
        List<Path> all = new ArrayList<>(paths);
        for (Path p : paths) {
            all.addAll(expand(p));
        }
        return all;
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
        return name.endsWith(".json") || name.endsWith(".json.gz") || name.endsWith(".sqlite");
    }

    /** Reads one file into its rank traces. */
    public static List<RankTrace> load(Path file) {
        return load(file, null);
    }

    /**
     * Reads one file into its rank traces; {@code stepPattern} (NVTX step range names, Nsight only)
     * replaces the default step patterns when not {@code null}.
     */
    public static List<RankTrace> load(Path file, Pattern stepPattern) {
        boolean captureDirectory = Files.isDirectory(file) && AscendReader.isCaptureDirectory(file);
        if (Files.isDirectory(file) && !captureDirectory) {
            throw new UserInputException(file + ": is a directory");
        }
        if (!Files.isReadable(file)) {
            throw new UserInputException(file + (Files.exists(file) ? ": permission denied" : ": no such file"));
        }
        try {
            if (captureDirectory) {
                return new AscendReader().read(file);
            }
            FormatDetector.Content content = FormatDetector.sniff(file);
            switch (content) {
                case EMPTY:
                    throw new UserInputException(file + ": file is empty");
                case KINETO_JSON:
                    return new KinetoReader(new KernelClassifier(KernelRules.current())).read(file);
                case SQLITE:
                    if (AscendReader.isAscendDatabase(file)) {
                        return new AscendReader().read(file);
                    }
                    return new NsysReader(stepPattern, new KernelClassifier(KernelRules.current())).read(file);
                case JSON_ARRAY:
                    // Bare arrays are Ascend timelines (trace_view.json, msprof_*.json); the reader
                    // says so in one line when the array is something else.
                    try {
                        return new AscendReader().read(file);
                    } catch (TraceFormatException e) {
                        throw bareArray(file, e);
                    }
                default:
                    throw new UserInputException(file + ": not a trace this tool reads "
                            + "(expected PyTorch profiler JSON, optionally gzip-compressed)");
            }
        } catch (TraceFormatException | InputLimitExceededException e) {
            // Both carry the one line for the user, naming the file. A reader may quote a value
            // from the file that holds a newline or control characters; the user still gets one line.
            throw new UserInputException(oneLine(e), e);
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
        return loadAll(paths, null);
    }

    /** Expands and loads every path, in order, with an optional Nsight step pattern. */
    public static List<RankTrace> loadAll(List<Path> paths, Pattern stepPattern) {
        List<RankTrace> traces = new ArrayList<>();
        for (Path p : paths) {
            for (Path f : expand(p)) {
                traces.addAll(load(f, stepPattern));
            }
        }
        return traces;
    }

    /**
     * A bare JSON array that is not an Ascend timeline: said as what it is (an array of events
     * without Ascend's metadata, or an empty one), and what the other JSON format looks like, since
     * "not an Ascend timeline" alone reads as if the tool took it for one.
     */
    private static UserInputException bareArray(Path file, TraceFormatException e)
            throws TraceFormatException, IOException {
        String marker = ": not an Ascend timeline: ";
        String m = oneLine(e);
        int at = m.indexOf(marker);
        if (at < 0) {
            throw e;
        }
        byte[] head = io.overlapanalyze.formats.InputStreams.head(file, 256);
        String start = new String(head, java.nio.charset.StandardCharsets.UTF_8).replaceAll("\\s+", "");
        if (start.equals("[]")) {
            return new UserInputException(file + ": an empty JSON array: no trace events");
        }
        return new UserInputException(file + ": a JSON array of events that is not an Ascend timeline ("
                + m.substring(at + marker.length()) + "), nor a PyTorch profiler trace (a JSON object with "
                + "\"traceEvents\")");
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ").replaceAll("\\p{Cntrl}", "?").trim();
    }
}
