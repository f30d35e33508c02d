package io.overlapanalyze.spark;

import io.overlapanalyze.model.RankTrace;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An input as a task reads it. A local path is read in place (by its absolute path: an executor
 * runs in a directory of its own). A URI is copied into a directory of
 * the task's own first, under its own name (readers tell formats by name and content, and an
 * Ascend capture is a directory read whole); the copy is removed when the task is done. Whatever
 * the reader says about the copy is said about the URI: the report and every message name the
 * input the user gave, never the copy.
 */
final class LocalCopy implements AutoCloseable {
    private final RankFile file;
    private final Path path;
    private final Path directory;

    private LocalCopy(RankFile file, Path path, Path directory) {
        this.file = file;
        this.path = path;
        this.directory = directory;
    }

    static LocalCopy of(RankFile file, Configuration conf) throws IOException {
        if (file.local()) {
            return new LocalCopy(file, Path.of(file.location()), null);
        }
        org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(file.location());
        Path dir = Files.createTempDirectory("overlap-analyze-task-");
        Path local = dir.resolve(remote.getName());
        try {
            FileSystem fs = remote.getFileSystem(conf);
            FileUtil.copy(fs, remote, local.toFile(), false, conf);
        } catch (IOException | RuntimeException e) {
            deleteTree(dir);
            throw e;
        }
        return new LocalCopy(file, local, dir);
    }

    /** Where the reader reads. */
    Path path() {
        return path;
    }

    /** The path rank naming looks at: the one the user knows (for a URI, its path part). */
    Path namedAs() {
        return file.local() ? Path.of(file.shownAs()) : Path.of(new org.apache.hadoop.fs.Path(file.location()).toUri().getPath());
    }

    /**
     * The trace as read from the user's input: its source and its warnings name that input, not
     * the copy (nor, for a local path, the absolute path the task read).
     */
    RankTrace relabel(RankTrace t) {
        if (path.toString().equals(file.shownAs())) {
            return t;
        }
        List<String> warnings = new ArrayList<>();
        for (String w : t.warnings()) {
            warnings.add(relabel(w));
        }
        String source = t.source() != null && t.source().contains(path.toString()) ? relabel(t.source()) : file.shownAs();
        return t.withSource(source).withWarnings(warnings);
    }

    /** A message about what the task read, about the user's input instead. */
    String relabel(String message) {
        return message == null ? null : message.replace(path.toString(), file.shownAs());
    }

    @Override
    public void close() {
        if (directory != null) {
            deleteTree(directory);
        }
    }

    /** Removes a temporary directory and what it holds, as far as it can. */
    static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Best effort: a task's temporary directory, which the executor's own clean-up also removes.
        }
    }
}
