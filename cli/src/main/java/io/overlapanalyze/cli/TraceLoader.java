package io.overlapanalyze.cli;

import io.overlapanalyze.formats.FormatDetector;
import io.overlapanalyze.formats.TraceFormatException;
import io.overlapanalyze.formats.ascend.AscendReader;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

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
                    if (attrs.isRegularFile() && isTraceFileName(file.getFileName().toString())) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
            if (found.isEmpty()) {
                throw new UserInputException(path + ": directory holds no trace files (*.json, *.json.gz,"
                        + " Ascend *_ascend_pt or PROF_* directories)");
            }
            found.sort(null);
            return found;
        } catch (IOException e) {
            throw new UserInputException(path + ": cannot list directory: " + e.getMessage(), e);
        }
    }

    static boolean isTraceFileName(String name) {
        return name.endsWith(".json") || name.endsWith(".json.gz");
    }

    /** Reads one file into its rank traces. */
    public static List<RankTrace> load(Path file) {
        if (Files.isDirectory(file)) {
            if (AscendReader.isCaptureDirectory(file)) {
                try {
                    return new AscendReader().read(file);
                } catch (TraceFormatException e) {
                    throw new UserInputException(e.getMessage(), e);
                } catch (IOException e) {
                    throw new UserInputException(file + ": cannot read: " + oneLine(e), e);
                }
            }
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
                    if (AscendReader.isAscendDatabase(file)) {
                        return new AscendReader().read(file);
                    }
                    throw new UserInputException(file + ": SQLite databases (Nsight Systems / Ascend DB exports) "
                            + "are not supported by this version; export a PyTorch profiler trace instead");
                case JSON_ARRAY:
                    // Bare arrays are Ascend timelines (trace_view.json, msprof_*.json); the reader
                    // says so in one line when the array is something else.
                    return new AscendReader().read(file);
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
