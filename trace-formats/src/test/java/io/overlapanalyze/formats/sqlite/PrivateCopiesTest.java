package io.overlapanalyze.formats.sqlite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 item 9: the private copy of a SQLite file with a write-ahead log (as large as the
 * export) does not outlive the process. SIGTERM while it is open removes it (a JVM of its own,
 * {@link OpenForever}, with a private {@code java.io.tmpdir}); the copies that a killed process left
 * (SIGKILL: no hook runs) are swept by the next run, and only those: a live process's, or one whose
 * lock is held, stays.
 */
class PrivateCopiesTest {
    @TempDir
    Path dir;

    /** Opens {@code args[0]} (with its -wal) through ReadOnlySqlite, prints the copy's directory, never closes. */
    public static final class OpenForever {
        public static void main(String[] args) throws Exception {
            ReadOnlySqlite db = ReadOnlySqlite.open(Path.of(args[0]));
            System.out.println(db.privateCopy());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** A database whose committed rows are still in its -wal, as a live writer leaves it. */
    private Path walDatabase() throws Exception {
        Path work = Files.createDirectories(dir.resolve("writer")).resolve("w.sqlite");
        Path snap = Files.createDirectories(dir.resolve("in")).resolve("export.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + work); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA wal_autocheckpoint=0");
            st.execute("CREATE TABLE t(x INTEGER)");
            st.execute("INSERT INTO t VALUES (1), (2), (3)");
            Files.copy(work, snap);
            Files.copy(Path.of(work + "-wal"), Path.of(snap + "-wal"));
        }
        return snap;
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void sigtermWhileTheCopyIsOpenRemovesIt() throws Exception {
        Path export = walDatabase();
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "-Djava.io.tmpdir=" + tmp,
                OpenForever.class.getName(), export.toString())
                .redirectError(dir.resolve("err.txt").toFile())
                .start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String copy = CompletableFuture.supplyAsync(() -> {
                try {
                    return lines.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(60, TimeUnit.SECONDS);
            assertTrue(copy != null && Files.isRegularFile(Path.of(copy, "db.sqlite")),
                    "the copy is open: " + copy + "; stderr: " + Files.readString(dir.resolve("err.txt")));
            assertEquals(tmp, Path.of(copy).getParent());
            assertTrue(Path.of(copy).getFileName().toString().startsWith("overlap-analyze-sqlite-" + p.pid() + "-"),
                    "named with the pid: " + copy);

            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the JVM did not end on SIGTERM");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(List.of(), names(tmp), "files left in the temporary directory");
        assertEquals(List.of("export.sqlite", "export.sqlite-wal"), names(export.getParent()), "beside the input");
    }

    @Test
    void copiesOfDeadProcessesAreSweptOthersStay() throws Exception {
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version").redirectErrorStream(true).redirectOutput(dir.resolve("v.txt").toFile()).start();
        assertTrue(gone.waitFor(60, TimeUnit.SECONDS));
        long dead = gone.pid();
        long alive = ProcessHandle.current().parent().orElseThrow().pid();
        Path tmp = Files.createDirectories(dir.resolve("tmp"));

        Path stale = Files.createDirectories(tmp.resolve("overlap-analyze-sqlite-" + dead + "-123"));
        Files.writeString(stale.resolve("db.sqlite"), "a copy");
        Files.writeString(stale.resolve("owner.lock"), "");
        Files.createDirectories(tmp.resolve("overlap-analyze-sqlite-" + alive + "-456"));
        Files.createDirectories(tmp.resolve("overlap-analyze-sqlite-notapid-789"));
        Files.createDirectories(tmp.resolve("someone-else-" + dead + "-1"));
        // Dead here, but its lock is held: a process of that id in another PID namespace.
        Path held = Files.createDirectories(tmp.resolve("overlap-analyze-sqlite-" + dead + "-999"));
        try (FileChannel ch = FileChannel.open(held.resolve("owner.lock"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE); var lock = ch.lock()) {
            PrivateCopies.sweepStale(tmp, PrivateCopies.PREFIX);
        }
        assertEquals(Stream.of("overlap-analyze-sqlite-" + alive + "-456", "overlap-analyze-sqlite-" + dead + "-999",
                "overlap-analyze-sqlite-notapid-789", "someone-else-" + dead + "-1").sorted().toList(), names(tmp));
    }
}
