package io.overlapanalyze.spark;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineInputException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the user's arguments stand for, expanded on the driver, as the CLI expands them.
 *
 * <p>An argument without a scheme is a local path and is expanded by the CLI's own code
 * ({@link AnalysisPipeline#expand}): the same files in the same order, the same names in the
 * report. Tasks read such a path in place, so it is for local mode or a file system every executor
 * mounts at the same path. An argument with a scheme ({@code hdfs://}, {@code s3a://},
 * {@code file://}) is a Hadoop FileSystem URI: a file, a directory walked for the same file names
 * (and capture directories read whole), or a glob; its files keep their URIs as names.
 */
final class InputLocations {
    private InputLocations() {
    }

    /** The inputs, and the lines for files the local expansion left out as no trace. */
    record Expanded(List<RankFile> files, List<String> skipped) {
        Expanded {
            files = List.copyOf(files);
            skipped = List.copyOf(skipped);
        }
    }

    static Expanded expand(List<String> arguments, PipelineInput in, Configuration conf) {
        TraceFormats formats = in.formats();
        List<Path> localArgs = new ArrayList<>();
        List<String> remoteArgs = new ArrayList<>();
        for (String a : arguments) {
            if (isUri(a)) {
                remoteArgs.add(a);
            } else {
                localArgs.add(Path.of(a));
            }
        }
        List<RankFile> files = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        if (!localArgs.isEmpty()) {
            TraceFormats.Expanded local = AnalysisPipeline.expand(in.withPaths(localArgs), TraceFormats.Keep.NOTHING);
            Set<Path> named = Set.copyOf(localArgs);
            for (Path f : local.files()) {
                // Read by its absolute path: an executor's working directory is not the driver's.
                files.add(new RankFile(f.toAbsolutePath().toString(), f.toString(), true, !named.contains(f)));
            }
            skipped.addAll(local.skipped());
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String a : remoteArgs) {
            for (RankFile f : expandUri(a, in.nameFilter(), formats, conf)) {
                if (seen.add(f.location())) {
                    files.add(f);
                }
            }
        }
        return new Expanded(files, skipped);
    }

    /** True for {@code scheme://…} or {@code scheme:/…}: a URI, not a local path. */
    static boolean isUri(String argument) {
        int colon = argument.indexOf(':');
        if (colon < 2) {
            return false; // no scheme, or a one-letter drive ("C:")
        }
        try {
            URI u = new URI(argument.replace(" ", "%20"));
            return u.getScheme() != null && argument.startsWith(u.getScheme() + ":/");
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static List<RankFile> expandUri(String argument, PathMatcher nameFilter, TraceFormats formats,
                                            Configuration conf) {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(argument);
        try {
            FileSystem fs = path.getFileSystem(conf);
            List<RankFile> found = new ArrayList<>();
            if (TraceFormats.isGlob(argument)) {
                FileStatus[] matches = fs.globStatus(path);
                if (matches == null || matches.length == 0) {
                    throw new PipelineInputException(argument + ": no file matches");
                }
                for (FileStatus s : matches) {
                    if (s.isFile() && (nameFilter == null || nameFilter.matches(Path.of(s.getPath().getName())))) {
                        found.add(remote(s.getPath(), true));
                    }
                }
                if (found.isEmpty()) {
                    throw new PipelineInputException(argument + ": no file matches");
                }
                found.sort(Comparator.comparing(RankFile::location));
                return found;
            }
            FileStatus status = fs.getFileStatus(path);
            if (status.isFile()) {
                return List.of(remote(status.getPath(), false));
            }
            FileStatus[] children = fs.listStatus(status.getPath());
            if (isInputDirectory(status, children, formats)) {
                return List.of(remote(status.getPath(), false));
            }
            walk(fs, children, nameFilter, formats, found);
            if (found.isEmpty()) {
                throw new PipelineInputException(argument + ": directory holds no trace files");
            }
            found.sort(Comparator.comparing(RankFile::location));
            return found;
        } catch (FileNotFoundException e) {
            throw new PipelineInputException(argument + ": no such file or directory", e);
        } catch (IOException | IllegalArgumentException e) {
            throw new PipelineInputException(argument + ": cannot list: " + Messages.oneLine(e), e);
        }
    }

    /** Walks a directory's {@code children}, each directory listed once (for the readers' question and the walk). */
    private static void walk(FileSystem fs, FileStatus[] children, PathMatcher nameFilter, TraceFormats formats,
                             List<RankFile> found) throws IOException {
        for (FileStatus s : children) {
            String name = s.getPath().getName();
            if (s.isDirectory()) {
                FileStatus[] below = fs.listStatus(s.getPath());
                if (isInputDirectory(s, below, formats)) {
                    found.add(remote(s.getPath(), true));
                } else {
                    walk(fs, below, nameFilter, formats, found);
                }
            } else if (s.isFile() && (nameFilter != null ? nameFilter.matches(Path.of(name))
                    : formats.isTraceFileName(name))) {
                found.add(remote(s.getPath(), true));
            }
        }
    }

    /**
     * Whether some reader reads this remote directory whole. The readers decide by a directory's
     * name and the names of what it holds, so they are asked about an empty local replica of
     * exactly that: the same decision as for a local directory, without copying any data.
     */
    private static boolean isInputDirectory(FileStatus dir, FileStatus[] children, TraceFormats formats) throws IOException {
        Path replica = Files.createTempDirectory("overlap-analyze-dir-");
        try {
            Path named = replica.resolve(dir.getPath().getName().isEmpty() ? "root" : dir.getPath().getName());
            Files.createDirectory(named);
            for (FileStatus child : children) {
                Path c = named.resolve(child.getPath().getName());
                if (child.isDirectory()) {
                    Files.createDirectory(c);
                } else {
                    Files.createFile(c);
                }
            }
            return formats.isInputDirectory(named);
        } finally {
            LocalCopy.deleteTree(replica);
        }
    }

    private static RankFile remote(org.apache.hadoop.fs.Path p, boolean walked) {
        String uri = p.toString();
        return new RankFile(uri, uri, false, walked);
    }
}
