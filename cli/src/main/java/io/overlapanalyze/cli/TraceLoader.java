package io.overlapanalyze.cli;

import io.overlapanalyze.formats.FormatDetector;
import io.overlapanalyze.formats.TraceFormatException;
import io.overlapanalyze.formats.kineto.KernelClassifier;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.RankTrace;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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

    /** The files a path stands for: itself, or the trace files below a directory. */
    public static List<Path> expand(Path path) {
        if (!Files.exists(path)) {
            throw new UserInputException(path + ": no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            List<Path> files = walk.filter(Files::isRegularFile)
                    .filter(p -> isTraceFileName(p.getFileName().toString()))
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new UserInputException(path + ": directory holds no trace files (*.json, *.json.gz, *.sqlite)");
            }
            return files;
        } catch (IOException e) {
            throw new UserInputException(path + ": cannot list directory: " + e.getMessage(), e);
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
                    return new NsysReader(stepPattern, new KernelClassifier()).read(file);
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

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ").trim();
    }
}
