package io.overlapanalyze.formats.sqlite;

import io.overlapanalyze.formats.input.Temporaries;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The temporary directories that hold a private copy of a SQLite file with its log
 * ({@link ReadOnlySqlite}): named {@code overlap-analyze-sqlite-<pid>-<random>} in
 * {@code java.io.tmpdir}, registered with {@link Temporaries} (deleted on close, or at exit when the
 * JVM is ended by a signal), and holding a lock file locked for as long as the process lives. A
 * copy can be the size of the export (gigabytes), so the ones a killed process left (SIGKILL, a
 * crash) are swept by the next run that makes one: a directory whose process is gone, and whose lock
 * nobody holds (a process of the same id in another PID namespace sharing the temporary directory
 * still holds it), is deleted.
 */
final class PrivateCopies {
    static final String PREFIX = "overlap-analyze-sqlite-";
    private static final String LOCK_FILE = "owner.lock";

    private PrivateCopies() {
    }

    /** A new private directory of this process, locked; the channel holds the lock (close it last). */
    record Dir(Path path, FileChannel lock) {
        void delete() {
            try {
                lock.close();
            } catch (IOException ignored) {
                // the directory goes anyway
            }
            Temporaries.delete(path);
        }
    }

    /** Sweeps the stale copies in the temporary directory, then makes a new one. */
    static Dir create() throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        sweepStale(tmp, PREFIX);
        long pid = ProcessHandle.current().pid();
        Path dir = Temporaries.create(() -> Files.createTempDirectory(PREFIX + pid + "-"));
        try {
            FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            try {
                ch.lock();
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
            return new Dir(dir, ch);
        } catch (IOException | RuntimeException e) {
            Temporaries.delete(dir);
            throw e;
        }
    }

    /**
     * Deletes every {@code <prefix><pid>-*} directory in {@code tmp} whose process is gone and whose
     * lock (if it has one) is free. Best effort: what cannot be deleted (another user's) stays.
     */
    static void sweepStale(Path tmp, String prefix) {
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmp, prefix + "*")) {
            for (Path d : entries) {
                Long pid = pidOf(d.getFileName().toString(), prefix);
                if (pid == null || pid == self || ProcessHandle.of(pid).isPresent()
                        || !Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS) || lockHeld(d.resolve(LOCK_FILE))) {
                    continue;
                }
                Temporaries.deleteTree(d);
            }
        } catch (IOException | RuntimeException e) {
            // Sweeping is a courtesy: the run goes on without it.
        }
    }

    /** The pid in {@code <prefix><pid>-<random>}, or {@code null} (not one of ours). */
    static Long pidOf(String name, String prefix) {
        if (!name.startsWith(prefix)) {
            return null;
        }
        int end = name.indexOf('-', prefix.length());
        if (end <= prefix.length() || end - prefix.length() > 18) {
            return null;
        }
        String digits = name.substring(prefix.length(), end);
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        return Long.parseLong(digits);
    }

    /** Whether some live process holds the lock (a directory without one, of an older version: not held). */
    private static boolean lockHeld(Path lockFile) {
        if (!Files.isRegularFile(lockFile, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true; // this JVM holds it
        } catch (IOException e) {
            return true; // cannot tell: keep it
        }
    }
}
