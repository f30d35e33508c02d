package io.overlapanalyze.formats.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where sqlite-jdbc extracts its native library: a private temporary directory of this process,
 * removed when the JVM exits. By default the library (and a {@code .lck} beside it) goes straight
 * into {@code java.io.tmpdir} under a shared name pattern, where a killed JVM leaves it behind and
 * concurrent runs clean up after each other. A user's own {@code org.sqlite.tmpdir} is respected.
 */
public final class NativeLibraryHome {
    private static final String PROPERTY = "org.sqlite.tmpdir";
    static final String PREFIX = "overlap-analyze-native-";
    private static boolean done;

    private NativeLibraryHome() {
    }

    /** Sets {@code org.sqlite.tmpdir} before the first connection loads the library; idempotent. */
    public static synchronized void ensure() {
        if (done) {
            return;
        }
        done = true;
        if (System.getProperty(PROPERTY) != null) {
            return;
        }
        try {
            // Named with this process's id: the ones killed processes left (SIGKILL) are swept here.
            PrivateCopies.sweepStale(Path.of(System.getProperty("java.io.tmpdir")), PREFIX);
            Path dir = Files.createTempDirectory(PREFIX + ProcessHandle.current().pid() + "-");
            System.setProperty(PROPERTY, dir.toString());
            // Shutdown hooks run before File.deleteOnExit's own hook, which would otherwise delete the
            // library file but never the directory.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    ReadOnlySqlite.deleteTree(dir);
                } catch (RuntimeException ignored) {
                    // exiting anyway
                }
            }, "sqlite-native-cleanup"));
        } catch (IOException | SecurityException e) {
            // No private directory: sqlite-jdbc falls back to java.io.tmpdir, still never the working directory.
        }
    }
}
