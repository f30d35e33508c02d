package io.overlapanalyze.formats.input;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Temporary files and directories of this process that must not outlive it: an output's hidden
 * {@code .tmp} beside the target, the private copy of a SQLite export with its log. The code that
 * makes one deletes it when done ({@link #delete}); when the JVM is ended first (Ctrl-C, SIGTERM from
 * a CI job's timeout, {@code System.exit} from another thread) a shutdown hook deletes what is still
 * registered. A kill the JVM cannot see (SIGKILL) is left to the stale sweeps of the owners.
 *
 * <p>Process-wide by necessity: a shutdown hook belongs to the process. Creating and registering
 * happen under one lock that the hook also takes, so that nothing is created once the hook has
 * looked (a file made after its sweep would be left behind).
 */
public final class Temporaries {
    private static final Object LOCK = new Object();
    private static final Set<Path> LIVE = new LinkedHashSet<>();
    private static boolean hookAdded;
    private static boolean shuttingDown;

    private Temporaries() {
    }

    /** Something that makes a temporary file or directory and returns what it made. */
    @FunctionalInterface
    public interface Maker<T> {
        T make() throws IOException;
    }

    /**
     * Creates {@code file} (it must not exist) for writing, registered for deletion at exit.
     *
     * @throws IOException when it exists, cannot be created, or the process is ending
     */
    public static OutputStream newFile(Path file) throws IOException {
        return createAt(file, () -> Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    /**
     * As {@link #newFile(Path)}, created with {@code mode} from its first byte ({@code null}: the
     * default permissions), so a file that replaces a private one is never readable by others.
     */
    public static OutputStream newFile(Path file, java.util.Set<java.nio.file.attribute.PosixFilePermission> mode)
            throws IOException {
        if (mode == null) {
            return newFile(file);
        }
        return createAt(file, () -> java.nio.channels.Channels.newOutputStream(Files.newByteChannel(file,
                java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(mode))));
    }

    /**
     * Makes a temporary file or directory with {@code maker} (which returns its path), registered
     * for deletion at exit, a directory with everything put in it.
     */
    public static Path create(Maker<Path> maker) throws IOException {
        synchronized (LOCK) {
            refuseWhenEnding();
            Path dir = maker.make();
            LIVE.add(dir);
            return dir;
        }
    }

    private static <T> T createAt(Path path, Maker<T> maker) throws IOException {
        synchronized (LOCK) {
            refuseWhenEnding();
            T made = maker.make();
            LIVE.add(path);
            return made;
        }
    }

    /** Refuses once the hook has run or can no longer be added; adds the hook before the first file is made. */
    private static void refuseWhenEnding() throws IOException {
        if (!shuttingDown && !hookAdded) {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(Temporaries::deleteAllAtExit,
                        "overlap-analyze-temporaries"));
                hookAdded = true;
            } catch (IllegalStateException e) {
                shuttingDown = true; // the JVM is already shutting down
            }
        }
        if (shuttingDown) {
            throw new IOException("the process is ending; no temporary file is made");
        }
    }

    /**
     * Deletes {@code path} (a directory with its content) if it still exists, and forgets it. Best
     * effort: what cannot be deleted now is left to the exit hook.
     */
    public static void delete(Path path) {
        if (deleteTree(path)) {
            synchronized (LOCK) {
                LIVE.remove(path);
            }
        }
    }

    /** Whether {@code path} is registered and not yet deleted (for tests). */
    static boolean isRegistered(Path path) {
        synchronized (LOCK) {
            return LIVE.contains(path);
        }
    }

    private static void deleteAllAtExit() {
        List<Path> left;
        synchronized (LOCK) {
            shuttingDown = true;
            left = new ArrayList<>(LIVE);
        }
        for (Path p : left) {
            deleteTree(p);
        }
    }

    /**
     * Deletes a file, or a directory with everything below it; links are deleted, never followed.
     *
     * @return whether nothing is left
     */
    public static boolean deleteTree(Path path) {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
        }
    }
}
