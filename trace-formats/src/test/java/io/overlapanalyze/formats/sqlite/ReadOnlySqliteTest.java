package io.overlapanalyze.formats.sqlite;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared SQLite opener on damaged copies of a real Nsight export (never the original): a file
 * cut while it is read, committed rows in a write-ahead log, a hot rollback journal, views and
 * virtual tables where tables belong, and the input size limit.
 */
class ReadOnlySqliteTest {
    private static final String EXPORT = "nsys/nsys2026.2.1_torchrun2gpu_nccl_before.sqlite";
    private static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";

    @TempDir
    Path dir;

    /** Device intervals over all ranks of an export. */
    private static int intervals(Path export) throws IOException, TraceFormatException {
        int n = 0;
        for (RankTrace t : new NsysReader().read(export)) {
            n += t.device().size();
        }
        return n;
    }

    private static String sha256(Path f) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void memoryMappingIsOff() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        try (ReadOnlySqlite db = ReadOnlySqlite.open(copy);
             Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery("PRAGMA mmap_size")) {
            assertTrue(rs.next());
            // Mapped pages past a shrunken file's end are a SIGBUS in the native library: a JVM crash.
            assertEquals(0, rs.getLong(1));
        }
    }

    /**
     * The file is cut to a third while a connection is open on it: the next read of the cut pages
     * is an SQL error (or reads what is left), never a crash. With mmap_size at 1 GiB this was a
     * SIGBUS in sqlite-jdbc's native code (exit 134, an hs_err file in the working directory).
     */
    @Test
    void aFileCutWhileItIsReadIsAnErrorNotACrash() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        try (ReadOnlySqlite db = ReadOnlySqlite.open(copy); Statement st = db.connection().createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + KERNEL)) {
                assertTrue(rs.next());
                assertEquals(4010, rs.getLong(1)); // PROVENANCE.md
            }
            try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                ch.truncate(Files.size(copy) / 3);
            }
            try (ResultSet rs = st.executeQuery("SELECT sum(\"end\" - start), max(shortName) FROM CUPTI_ACTIVITY_KIND_RUNTIME"
                    + " JOIN " + KERNEL + " USING (correlationId)")) {
                while (rs.next()) {
                    rs.getLong(1);
                }
            } catch (SQLException expected) {
                // a short read of a cut page: an error the reader reports in one line
            }
        }
        // And through the reader: one line, exit 2 in the CLI.
        assertThrows(TraceFormatException.class, () -> new NsysReader().read(copy));
    }

    /**
     * A writer deleted half the kernels in a committed transaction still in its write-ahead log
     * (a crashed or live writer: not checkpointed). The reader must see the deletion, as sqlite3
     * does, and write nothing beside the input. {@code immutable=1} alone ignored the log.
     */
    @Test
    void committedRowsInAWriteAheadLogAreRead() throws Exception {
        Path work = SharedExports.copy(EXPORT, Files.createDirectories(dir.resolve("writer")));
        Path snap = Files.createDirectories(dir.resolve("snapshot")).resolve("export.sqlite");
        try (Connection w = DriverManager.getConnection("jdbc:sqlite:" + work); Statement st = w.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA wal_autocheckpoint=0");
            st.execute("DELETE FROM " + KERNEL + " WHERE rowid % 2 = 0");
            // The database and its log as the writer leaves them, before any checkpoint.
            Files.copy(work, snap);
            Files.copy(work.resolveSibling(work.getFileName() + "-wal"), snap.resolveSibling("export.sqlite-wal"));
        }
        // The writer has closed: its checkpoint put the deletion into the database itself.
        int truth = intervals(work);
        int original = intervals(SharedExports.original(EXPORT));
        assertTrue(truth < original - 1000, truth + " vs " + original);
        String dbHash = sha256(snap);
        String walHash = sha256(snap.resolveSibling("export.sqlite-wal"));
        List<String> before = names(snap.getParent());

        assertEquals(truth, intervals(snap));
        try (ReadOnlySqlite db = ReadOnlySqlite.open(snap)) {
            assertTrue(db.readThroughCopy());
        }
        assertEquals(dbHash, sha256(snap), "database unchanged");
        assertEquals(walHash, sha256(snap.resolveSibling("export.sqlite-wal")), "log unchanged");
        assertEquals(before, names(snap.getParent()), "no -shm or other file beside the input");
    }

    /**
     * A writer's transaction spilled changed pages into the database and left a hot rollback
     * journal (a crash mid-write). sqlite3 rolls the journal back and reads the last committed
     * state; so must the reader, without writing beside the input (it reported "corrupt").
     */
    @Test
    void aHotJournalIsRolledBackInAPrivateCopy() throws Exception {
        Path work = SharedExports.copy(EXPORT, Files.createDirectories(dir.resolve("writer")));
        Path snap = Files.createDirectories(dir.resolve("snapshot")).resolve("export.sqlite");
        byte[] committed = Files.readAllBytes(work);
        try (Connection w = DriverManager.getConnection("jdbc:sqlite:" + work); Statement st = w.createStatement()) {
            st.execute("PRAGMA journal_mode=DELETE");
            st.execute("PRAGMA cache_size=1"); // changed pages spill into the database before commit
            w.setAutoCommit(false);
            st.execute("DELETE FROM " + KERNEL);
            st.execute("DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME");
            Files.copy(work, snap);
            Files.copy(work.resolveSibling(work.getFileName() + "-journal"), snap.resolveSibling("export.sqlite-journal"));
            w.rollback();
        }
        assertFalse(Arrays.equals(committed, Files.readAllBytes(snap)), "the snapshot holds uncommitted pages");
        String dbHash = sha256(snap);
        List<String> before = names(snap.getParent());

        assertEquals(intervals(SharedExports.original(EXPORT)), intervals(snap));
        assertEquals(dbHash, sha256(snap), "database unchanged");
        assertEquals(before, names(snap.getParent()), "the journal is still there, nothing else appeared");
    }

    @Test
    void thePrivateCopyIsRemovedOnClose() throws Exception {
        Path work = SharedExports.copy(EXPORT, Files.createDirectories(dir.resolve("writer")));
        Path snap = Files.createDirectories(dir.resolve("snapshot")).resolve("export.sqlite");
        try (Connection w = DriverManager.getConnection("jdbc:sqlite:" + work); Statement st = w.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA wal_autocheckpoint=0");
            st.execute("DELETE FROM " + KERNEL + " WHERE rowid % 3 = 0");
            Files.copy(work, snap);
            Files.copy(work.resolveSibling(work.getFileName() + "-wal"), snap.resolveSibling("export.sqlite-wal"));
        }
        Path copyDir;
        try (ReadOnlySqlite db = ReadOnlySqlite.open(snap)) {
            copyDir = db.privateCopy();
            assertTrue(Files.isDirectory(copyDir));
            assertNotEquals(snap.getParent(), copyDir);
        }
        assertFalse(Files.exists(copyDir), "private copy left behind: " + copyDir);
    }

    /**
     * A 70 KB export whose kernel table is a recursive view ran for minutes, growing without
     * bound: a view (or a virtual table) where a table is read is refused at once.
     */
    @Test
    void aKernelTableThatIsARecursiveViewIsRefusedAtOnce() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "DROP TABLE " + KERNEL,
                "CREATE VIEW " + KERNEL + " AS WITH RECURSIVE r(start, \"end\", deviceId, contextId, streamId,"
                        + " correlationId, globalPid, shortName) AS (SELECT 0, 1, 0, 1, 7, 1, 0, 1 UNION ALL"
                        + " SELECT start + 1, \"end\" + 1, deviceId, contextId, streamId, correlationId + 1, globalPid,"
                        + " shortName FROM r) SELECT * FROM r");
        TraceFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(TraceFormatException.class, () -> new NsysReader().read(copy)));
        assertTrue(e.getMessage().contains(KERNEL + " is a view, not a table"), e.getMessage());
        assertTrue(e.getMessage().startsWith(copy.toString()), e.getMessage());
    }

    @Test
    void aVirtualTableWhereATableIsReadIsRefused() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "DROP TABLE StringIds", "CREATE VIRTUAL TABLE StringIds USING fts5(id, value)");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(copy));
        assertTrue(e.getMessage().contains("StringIds is a virtual table, not a table"), e.getMessage());
    }

    @Test
    void aFileOverTheInputSizeLimitIsRefused() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        InputLimits small = new InputLimits(1_000_000, 200); // the export has 2,686,976 bytes
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> new NsysReader(null, new io.overlapanalyze.formats.kernels.KernelClassifier(), small).read(copy));
        assertTrue(e.getMessage().contains("2686976 bytes, over the input size limit of 1000000 bytes"
                + " (raise it with --max-input-size)"), e.getMessage());
    }

    @Test
    void theNativeLibraryGoesToAPrivateTemporaryDirectory() throws Exception {
        try (ReadOnlySqlite db = ReadOnlySqlite.open(SharedExports.original(EXPORT))) {
            String home = System.getProperty("org.sqlite.tmpdir");
            assertTrue(home != null && Path.of(home).getFileName().toString().startsWith("overlap-analyze-native-"),
                    "org.sqlite.tmpdir = " + home);
            assertTrue(Path.of(home).toAbsolutePath().startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath()));
        }
    }
}
