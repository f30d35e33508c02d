package io.overlapanalyze.options;

import io.overlapanalyze.formats.input.Messages;
import java.io.IOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Everything a command reads or could read: the input files, and every file and directory below an
 * input directory (an Ascend capture opens files the user never named: profiler_info, databases,
 * CSVs). Files are known by their file key (device and inode, so hard links and symbolic links are
 * the same file) and by their real path; directories by their real path, so a target inside one
 * is recognised whatever name leads to it.
 */
final class InputFiles {
    /**
     * Entries walked below the inputs at most: a link inside a capture to {@code /} must not make
     * the check walk the whole machine. Input directories themselves are protected by path whatever
     * the walk reached.
     */
    private static final int MAX_WALKED = 500_000;

    /** As the kernel's limit on links followed in one lookup (ELOOP). */
    private static final int MAX_LINKS = 40;

    private final Set<Object> fileKeys = new HashSet<>();
    private final Set<Path> realFiles = new HashSet<>();
    private final Set<Path> realDirs = new java.util.LinkedHashSet<>();
    private int walked;

    private InputFiles() {
    }

    /** Collects the inputs; paths that do not exist (globs as typed, built-in scenario names) are skipped. */
    static InputFiles of(Collection<Path> inputs) {
        InputFiles files = new InputFiles();
        for (Path p : inputs) {
            files.add(p);
        }
        return files;
    }

    private void add(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        if (!Files.isDirectory(p)) {
            addFile(p);
            return;
        }
        try {
            // Links are followed: the readers follow them too. A loop ends that branch, nothing more.
            Files.walkFileTree(p, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            addDirectory(dir, attrs);
                            return ++walked < MAX_WALKED ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            addFile(file);
                            return ++walked < MAX_WALKED ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) {
                            if (!(e instanceof FileSystemLoopException)) {
                                addFile(file);
                            }
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException e) {
            // What could not be listed cannot be read either; the directory itself still counts.
            addDirectory(p, null);
        }
    }

    private void addDirectory(Path dir, BasicFileAttributes attrs) {
        Path real = realPath(dir);
        if (real != null) {
            realDirs.add(real);
        }
        if (attrs != null && attrs.fileKey() != null) {
            fileKeys.add(attrs.fileKey());
        }
    }

    private void addFile(Path file) {
        Path real = realPath(file);
        if (real != null) {
            realFiles.add(real);
        }
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            if (key != null) {
                fileKeys.add(key);
            }
        } catch (IOException e) {
            // Unreadable: the real path above still protects it.
        }
    }

    /**
     * Why writing {@code target} would change an input, or {@code null} when it would not.
     *
     * @param target where the output goes: its real path when it exists, else its real parent and name
     */
    String conflict(Path target) {
        Path where = realLocation(target);
        if (Files.exists(target)) {
            try {
                Object key = Files.readAttributes(target, BasicFileAttributes.class).fileKey();
                if (key != null && fileKeys.contains(key)) {
                    return "refusing to overwrite an input file (or another name for one)";
                }
            } catch (IOException e) {
                // Decided by path below.
            }
        }
        if (where != null && realFiles.contains(where)) {
            return "refusing to overwrite an input file (or another name for one)";
        }
        for (Path dir : realDirs) {
            if (where != null && where.startsWith(dir)) {
                return "refusing to write inside the input directory " + Messages.quote(dir) + "; write the output elsewhere";
            }
        }
        return null;
    }

    /** The real path of {@code p}: resolved through every link, or, when it does not exist, its parent's. */
    static Path realLocation(Path p) {
        return realLocation(p, 0);
    }

    /** Links are followed by hand where the path does not resolve (a link to a file not yet written). */
    private static Path realLocation(Path p, int links) {
        Path abs = p.toAbsolutePath().normalize();
        Path real = realPath(abs);
        if (real != null) {
            return real;
        }
        Path parent = abs.getParent();
        if (parent == null || abs.getFileName() == null) {
            return abs;
        }
        Path realParent = realLocation(parent, links);
        Path here = realParent.resolve(abs.getFileName());
        if (links < MAX_LINKS && Files.isSymbolicLink(here)) {
            try {
                return realLocation(realParent.resolve(Files.readSymbolicLink(here)), links + 1);
            } catch (IOException e) {
                return here;
            }
        }
        return here;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
