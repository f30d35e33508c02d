package io.overlapanalyze.formats;

import io.overlapanalyze.formats.input.Messages;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace files below a directory an input names, symbolic links included: a job directory
 * assembled with {@code ln -s} (a common way to group ranks) is read like one of copies.
 *
 * <ul>
 *   <li>The directory itself may be a link ({@code latest -> run-42}): it is walked, and what is
 *       found is named through it, as typed.</li>
 *   <li>A link to a file is followed: taken when its own name or its target's is a trace name
 *       (the name filter's, with {@code --include}).</li>
 *   <li>A link to a capture directory a reader reads whole (Ascend) is an input, like a file: read
 *       whole, never walked.</li>
 *   <li>A link to another directory is never walked: inside the input it leads where the walk goes
 *       anyway (a link to an enclosing directory is a loop, named in a note); outside the input it
 *       could lead anywhere ({@code /}), so it is named in a note, not followed.</li>
 *   <li>A link to nothing or a loop of links named like a trace is an input, so that the reader
 *       reports it unreadable (a job must not pass on 3 of 4 ranks in silence); under another name
 *       it is named in a note.</li>
 *   <li>A file reached by two names (a link beside its target) is read once, under its first name
 *       in sorted order, the plain file before a link.</li>
 * </ul>
 * The walk itself never follows a link, so it is bounded by the directory tree.
 */
final class LinkedDirectoryWalk {
    private final TraceFormats formats;
    private final Path root;
    private final PathMatcher nameFilter;
    private final List<String> notes;
    /** Where a subdirectory that cannot be listed is named ({@code null}: it is the error). */
    private final List<Path> unlisted;

    /**
     * @param notes    where a link not followed is named, one line each
     * @param unlisted where a subdirectory that cannot be listed is named; {@code null}: that is an error
     */
    LinkedDirectoryWalk(TraceFormats formats, Path root, PathMatcher nameFilter, List<String> notes,
                        List<Path> unlisted) {
        this.unlisted = unlisted;
        this.formats = formats;
        this.root = root;
        this.nameFilter = nameFilter;
        this.notes = notes;
    }

    /** The inputs found, sorted, each file once; the notes added in sorted order (the walk's is the disk's). */
    List<Path> walk() throws IOException {
        List<String> mine = new ArrayList<>();
        List<Path> found = new LinkedDirectoryWalk(formats, root, nameFilter, mine, unlisted).walkTree();
        mine.sort(null);
        notes.addAll(mine);
        return found;
    }

    private List<Path> walkTree() throws IOException {
        Path realRoot = root.toRealPath();
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(realRoot, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (!dir.equals(realRoot) && formats.isInputDirectory(dir)) {
                    found.add(dir);
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isSymbolicLink()) {
                    link(file, realRoot, found);
                } else if (wanted(file.getFileName())) {
                    // A regular file, or a FIFO, socket or device named like a trace: an input like the
                    // others, so that one that cannot be read is reported as unreadable ({@link
                    // TraceFormats#read}) instead of being left out in silence.
                    found.add(file);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                // A subdirectory of a shared job directory that this user may not list: named, the rest read.
                if (unlisted != null && !file.equals(realRoot) && exc instanceof java.nio.file.AccessDeniedException) {
                    unlisted.add(root.resolve(realRoot.relativize(file)));
                    return FileVisitResult.CONTINUE;
                }
                throw exc;
            }
        });
        found.sort(null);
        List<Path> once = onceEach(found);
        List<Path> named = new ArrayList<>(once.size());
        for (Path p : once) {
            named.add(root.resolve(realRoot.relativize(p)));
        }
        return named;
    }

    private void link(Path link, Path realRoot, List<Path> found) {
        BasicFileAttributes target;
        try {
            target = Files.readAttributes(link, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            unresolved(link, found, "a symbolic link to nothing" + targetOf(link));
            return;
        } catch (IOException e) {
            if (TraceFormats.isLinkLoop(link)) {
                unresolved(link, found, "a loop of symbolic links" + targetOf(link));
            } else {
                String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason()
                        : e.getMessage();
                unresolved(link, found, "a symbolic link that cannot be followed" + targetOf(link) + ": "
                        + Messages.printable(String.valueOf(why)));
            }
            return;
        }
        if (!target.isDirectory()) {
            if (wanted(link.getFileName()) || wanted(realName(link))) {
                found.add(link);
            }
            return;
        }
        Path real;
        try {
            real = link.toRealPath();
        } catch (IOException e) {
            return; // gone since: nothing to read
        }
        if (real.startsWith(realRoot)) {
            if (link.getParent() != null && link.getParent().startsWith(real)) {
                notes.add(Messages.quote(shown(link)) + ": a symbolic link to an enclosing directory (a loop), not followed");
            }
            return; // the walk reaches the directory itself
        }
        if (formats.isInputDirectory(link)) {
            found.add(link); // a capture read whole, as if named on the command line
            return;
        }
        notes.add(Messages.quote(shown(link)) + ": a symbolic link to a directory outside " + Messages.quote(root)
                + targetOf(link) + ", not followed");
    }

    /** A link that does not resolve: an input when named like a trace (reported unreadable), else a note. */
    private void unresolved(Path link, List<Path> found, String what) {
        if (wanted(link.getFileName())) {
            found.add(link);
        } else {
            notes.add(Messages.quote(shown(link)) + ": " + what + ", skipped");
        }
    }

    private boolean wanted(Path name) {
        if (name == null) {
            return false;
        }
        return nameFilter != null ? nameFilter.matches(name) : formats.isTraceFileName(name.toString());
    }

    private static Path realName(Path link) {
        try {
            return link.toRealPath().getFileName();
        } catch (IOException e) {
            return null;
        }
    }

    /** The path as the user names it: below the root as typed. */
    private Path shown(Path walked) {
        try {
            return root.resolve(root.toRealPath().relativize(walked));
        } catch (IOException | IllegalArgumentException e) {
            return walked;
        }
    }

    /** " (→ TARGET)" for a link whose target can be read, else "". */
    private static String targetOf(Path link) {
        try {
            return " (-> " + Messages.quote(Files.readSymbolicLink(link)) + ")";
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "";
        }
    }

    /** Each real file once: the first in sorted order, a plain file before a link to it. */
    private static List<Path> onceEach(List<Path> sorted) {
        Map<Object, Path> chosen = new LinkedHashMap<>();
        List<Object> keys = new ArrayList<>(sorted.size());
        for (Path p : sorted) {
            Object key = fileKey(p);
            keys.add(key);
            if (key != null) {
                Path earlier = chosen.get(key);
                if (earlier == null || (Files.isSymbolicLink(earlier) && !Files.isSymbolicLink(p))) {
                    chosen.put(key, p);
                }
            }
        }
        List<Path> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            Object key = keys.get(i);
            // An unresolvable path (a link to nothing) stays: the reader reports it.
            if (key == null || chosen.get(key) == sorted.get(i)) {
                out.add(sorted.get(i));
            }
        }
        return out;
    }

    private static Object fileKey(Path p) {
        try {
            Object key = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
            return key != null ? key : p.toRealPath();
        } catch (IOException e) {
            return null;
        }
    }
}
