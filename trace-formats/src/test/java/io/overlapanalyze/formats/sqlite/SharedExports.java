package io.overlapanalyze.formats.sqlite;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * Writable copies of the shared real SQLite exports, for tests that damage them: the originals
 * ({@code ../shared/traces}, read-only) are only ever read. Tests skip when they are absent.
 */
public final class SharedExports {
    private SharedExports() {
    }

    /** {@code ../shared/traces/<relative>}, or a skipped test when the shared traces are absent. */
    public static Path original(String relative) {
        Path p = Path.of(System.getProperty("overlap.sharedTraces", "../shared/traces"), relative);
        Assumptions.assumeTrue(Files.exists(p), "shared traces not found at " + p
                + " (set -Doverlap.sharedTraces): skipping");
        return p;
    }

    /** A writable copy of a shared file or directory tree in {@code dir}. */
    public static Path copy(String relative, Path dir) throws IOException {
        Path from = original(relative);
        Path to = dir.resolve(from.getFileName().toString());
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
                target.toFile().setWritable(true, true);
            }
        }
        return to;
    }

    /** Runs statements on {@code db} through an ordinary read-write connection. */
    public static void sql(Path db, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    /** The first value of a one-row query on a copy (read-write connection; nothing changes). */
    public static long scalar(Path db, String query) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             Statement st = c.createStatement(); var rs = st.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
