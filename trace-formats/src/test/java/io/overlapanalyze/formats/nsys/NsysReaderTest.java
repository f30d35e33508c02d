package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.KernelShape;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.SyntheticTimeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reader on generated exports: joins, NVTX, read-only guarantees and the one-line errors. */
class NsysReaderTest {
    @TempDir
    Path tmp;

    private Path seed(String scenario) throws IOException {
        Path f = tmp.resolve(scenario + ".sqlite");
        NsysScenarioWriter.write(BuiltinScenarios.get(scenario), f);
        return f;
    }

    @Test
    void readsKernelsLaunchesStepsPhasesAndCollectives() throws Exception {
        Path f = tmp.resolve("seed.sqlite");
        SyntheticTimeline plan = NsysScenarioWriter.write(BuiltinScenarios.get("seed-1ms-optimizer"), f);
        RankTrace t = new NsysReader().read(f).get(0);
        SyntheticTimeline.PlannedStep step = plan.steps().get(0);
        long base = plan.baseTimeNanoseconds();
        assertEquals(step.compute().size() + step.reductions().size(), t.device().size());
        long comm = 0;
        for (int i = 0; i < t.device().size(); i++) {
            assertTrue(Time.isKnown(t.device().launchNs(i)), "every kernel joined to its launch");
            if (t.device().kind(i) == DeviceKind.COMM) {
                comm++;
            }
        }
        assertEquals(3, comm);
        assertEquals(0, t.unmatchedLaunchNs().length);
        assertTrue(t.hostOpsPresent(), "emit_nvtx ranges are host phase information");
        assertEquals(1, t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count());
        assertEquals(base + step.hostStart(), t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP)
                .findFirst().orElseThrow().startNs(), "epoch clock: utcEpochNs + capture time");
        assertTrue(t.hostSpans().stream().anyMatch(s -> s.kind() == HostSpanKind.OPTIMIZER));
        assertTrue(t.hostSpans().stream().anyMatch(s -> s.kind() == HostSpanKind.BACKWARD));
        assertTrue(t.threads().stream().anyMatch(th -> th.autograd()), "pt_autograd_0 from ThreadNames");
        assertEquals(3, t.collectives().size());
        for (int k = 0; k < 3; k++) {
            Collective c = t.collectives().get(k);
            SyntheticTimeline.PlannedReduction r = step.reductions().get(k);
            assertEquals(CollectiveType.ALL_REDUCE, c.type());
            assertEquals(base + r.enqueue(), c.enqueueNs(), "enqueue = start of c10d::allreduce_");
            assertEquals(base + r.start(), t.device().start(c.deviceIntervals()[0]));
        }
    }

    /** The writer launches compute kernels with grid (8,1,1) block (128,1,1), NCCL with (2,1,1) (544,1,1). */
    @Test
    void readsEachKernelsLaunchShape() throws Exception {
        Path f = seed("seed-4ms");
        RankTrace t = new NsysReader().read(f).get(0);
        int compute = 0;
        for (int i = 0; i < t.device().size(); i++) {
            KernelShape expected = t.device().kind(i) == DeviceKind.COMM ? new KernelShape(2, 1, 1, 544, 1, 1)
                    : new KernelShape(8, 1, 1, 128, 1, 1);
            assertEquals(expected, t.device().shape(i), "interval " + i);
            compute += t.device().kind(i) == DeviceKind.COMPUTE ? 1 : 0;
        }
        assertTrue(compute > 0);
    }

    /** An export whose kernel table lacks one of the six dimension columns: no shape, no error. */
    @Test
    void anExportWithoutTheShapeColumnsReadsWithoutShapes() throws Exception {
        Path f = seed("seed-4ms");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN blockZ");
        }
        RankTrace t = new NsysReader().read(f).get(0);
        assertTrue(t.device().size() > 0);
        for (int i = 0; i < t.device().size(); i++) {
            assertNull(t.device().shape(i), "interval " + i);
        }
    }

    @Test
    void leavesTheFileByteIdenticalAndCreatesNoSideFiles() throws Exception {
        Path f = seed("seed-4ms");
        // WAL mode is the hard case: an ordinary connection creates -wal/-shm beside the file.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
        }
        for (String side : List.of("-wal", "-shm", "-journal")) {
            Files.deleteIfExists(Path.of(f + side));
        }
        byte[] before = sha256(f);
        long modified = Files.getLastModifiedTime(f).toMillis();
        List<String> filesBefore = listing();
        new NsysReader().read(f);
        new NsysReader().read(f);
        assertEquals(HexFormat.of().formatHex(before), HexFormat.of().formatHex(sha256(f)), "byte-identical");
        assertEquals(modified, Files.getLastModifiedTime(f).toMillis());
        assertEquals(filesBefore, listing(), "no -wal/-shm/-journal or other file appeared");
    }

    @Test
    void aReadOnlyFileInAReadOnlyDirectoryIsRead() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("ro"));
        Path f = dir.resolve("x.sqlite");
        NsysScenarioWriter.write(BuiltinScenarios.get("seed-1ms"), f);
        assertTrue(f.toFile().setWritable(false, false));
        assertTrue(dir.toFile().setWritable(false, false));
        try {
            assertEquals(1, new NsysReader().read(f).size());
        } finally {
            dir.toFile().setWritable(true, false);
            f.toFile().setWritable(true, false);
        }
    }

    @Test
    void pathWithSpacesAndUriCharacters() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("a dir #1 ?x%20"));
        Path f = dir.resolve("rank 0.sqlite");
        NsysScenarioWriter.write(BuiltinScenarios.get("seed-1ms"), f);
        assertEquals(6, new NsysReader().read(f).get(0).device().size());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(1, s.count());
        }
    }

    @Test
    void sqliteButNotAnNsightExport() throws Exception {
        Path f = tmp.resolve("other.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE users (id INTEGER, name TEXT)");
        }
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(f));
        assertOneLine(e, f, "not an Nsight Systems export");
    }

    @Test
    void nvprofDatabaseIsNamed() throws Exception {
        Path f = tmp.resolve("prof.nvvp");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT)");
        }
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(f));
        assertOneLine(e, f, "nvprof database");
    }

    @Test
    void corruptSqliteFile() throws Exception {
        Path f = seed("seed-4ms");
        // Keep the 100-byte header (so it still sniffs as SQLite) and overwrite the schema page and beyond.
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            byte[] junk = new byte[(int) Math.min(raf.length() - 100, 64 * 1024)];
            java.util.Arrays.fill(junk, (byte) 0x5A);
            raf.seek(100);
            raf.write(junk);
        }
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(f));
        assertOneLine(e, f, "corrupt SQLite database");
    }

    @Test
    void truncatedSqliteFile() throws Exception {
        Path f = seed("training-jitter");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(raf.length() / 2);
        }
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(f));
        assertOneLine(e, f, "SQLite database");
    }

    @Test
    void notSqliteAtAll() throws Exception {
        Path f = tmp.resolve("x.sqlite");
        Files.writeString(f, "hello");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(f));
        assertOneLine(e, f, "not an SQLite database");
    }

    /** A newer schema that renamed a column the reader can do without: one warning, still read. */
    @Test
    void newerSchemaWithRenamedColumnsIsStillReadWhenTheNeededColumnsExist() throws Exception {
        Path f = seed("seed-1ms");
        sql(f, "UPDATE META_DATA_EXPORT SET value = '3.31.0' WHERE name = 'EXPORT_SCHEMA_VERSION'",
                "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME COLUMN shortName TO baseNameId",
                "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME COLUMN greenContextId TO greenCtx");
        RankTrace t = new NsysReader().read(f).get(0);
        assertEquals(6, t.device().size(), "3 compute + 3 NCCL kernels");
        assertEquals(3, t.collectives().size(), "NCCL kernels still found by their demangled names");
        long newer = t.warnings().stream().filter(w -> w.contains("3.31.0") && w.contains("newer")).count();
        assertEquals(1, newer, t.warnings().toString());
    }

    /** A newer schema that renamed a needed column: one line naming table, column and schema. */
    @Test
    void newerSchemaWithoutANeededColumnGivesOneLine() throws Exception {
        Path f = seed("seed-1ms");
        sql(f, "UPDATE META_DATA_EXPORT SET value = '4.0.0' WHERE name = 'EXPORT_SCHEMA_VERSION'",
                "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME COLUMN start TO startNs");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new NsysReader().read(f));
        assertOneLine(e, f, "CUPTI_ACTIVITY_KIND_KERNEL has no column 'start'");
        assertTrue(e.getMessage().contains("4.0.0") && e.getMessage().contains("renamed"), e.getMessage());
    }

    @Test
    void exportWithoutKernelsIsNoDeviceActivity() throws Exception {
        Path f = seed("seed-1ms");
        sql(f, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL");
        List<RankTrace> traces = new NsysReader().read(f);
        assertEquals(1, traces.size());
        assertFalse(traces.get(0).hasDeviceActivity());
        assertTrue(traces.get(0).warnings().stream().anyMatch(w -> w.startsWith("no device activity in this export")));
    }

    @Test
    void userColumnsAndOldMetadataTable() throws Exception {
        Path f = seed("seed-1ms");
        // 2022 layout: EXPORT_META_DATA; users add columns with ALTER TABLE (observed in a real export).
        sql(f, "ALTER TABLE META_DATA_EXPORT RENAME TO EXPORT_META_DATA",
                "UPDATE EXPORT_META_DATA SET value = '2.9.1' WHERE name = 'EXPORT_SCHEMA_VERSION'",
                "ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME ADD COLUMN name TEXT",
                "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN note TEXT");
        RankTrace t = new NsysReader().read(f).get(0);
        assertEquals(6, t.device().size(), "3 compute + 3 NCCL kernels");
        assertTrue(t.warnings().stream().noneMatch(w -> w.contains("newer")), t.warnings().toString());
    }

    @Test
    void backtraceDuplicatesAndOtherProcessesDoNotJoin() throws Exception {
        Path f = seed("seed-1ms");
        // Class 67 rows repeat a correlationId; another process reuses the same ids (nsys.md §4).
        sql(f, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)"
                        + " SELECT start - 1000, end, 67, globalTid, correlationId, nameId, 0 FROM CUPTI_ACTIVITY_KIND_RUNTIME",
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue)"
                        + " SELECT start - 2000, end, 0, globalTid + (1 << 24), correlationId, nameId, 0"
                        + " FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass IN (0, 1)");
        Path clean = tmp.resolve("clean.sqlite");
        NsysScenarioWriter.write(BuiltinScenarios.get("seed-1ms"), clean);
        RankTrace expected = new NsysReader().read(clean).get(0);
        RankTrace t = new NsysReader().read(f).get(0);
        assertEquals(6, t.device().size(), "3 compute + 3 NCCL kernels");
        for (int i = 0; i < t.device().size(); i++) {
            assertEquals(expected.device().launchNs(i), t.device().launchNs(i), "launch of the same process, class 0/1");
        }
    }

    /**
     * nsys does not promise time order (nsys.md §9) and the reader orders rows in Java: the same
     * export with its device and runtime tables stored in reverse or scrambled order reads to the
     * same model, field by field.
     */
    @Test
    void rowOrderOfTheExportDoesNotMatter() throws Exception {
        for (String order : List.of("start DESC, end DESC", "(correlationId * 7919) % 101, end DESC")) {
            Path clean = tmp.resolve("clean.sqlite");
            Files.deleteIfExists(clean);
            NsysScenarioWriter.write(BuiltinScenarios.get("training-jitter"), clean);
            Path f = tmp.resolve("shuffled.sqlite");
            Files.copy(clean, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            for (String table : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME")) {
                sql(f, "CREATE TEMP TABLE copy AS SELECT * FROM " + table, "DELETE FROM " + table,
                        "INSERT INTO " + table + " SELECT * FROM copy ORDER BY " + order, "DROP TABLE copy");
            }
            assertSameModel(new NsysReader().read(clean).get(0), new NsysReader().read(f).get(0), order);
        }
    }

    /** Of two launch calls with one (process, correlationId) the earliest joins, whichever is stored first. */
    @Test
    void earliestLaunchCallOfAKeyJoinsWhateverTheStoredOrder() throws Exception {
        Path clean = seed("seed-1ms");
        RankTrace expected = new NsysReader().read(clean).get(0);
        Path f = tmp.resolve("dup.sqlite");
        Files.copy(clean, f);
        sql(f, "CREATE TEMP TABLE copy AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME",
                "DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME",
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM copy",
                "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = start + 1000 WHERE rowid IN"
                        + " (SELECT rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid LIMIT (SELECT count(*) FROM copy))",
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM copy", "DROP TABLE copy");
        RankTrace t = new NsysReader().read(f).get(0);
        assertEquals(expected.device().size(), t.device().size());
        for (int i = 0; i < t.device().size(); i++) {
            assertEquals(expected.device().launchNs(i), t.device().launchNs(i), "the earlier of the two calls");
        }
    }

    private static void assertSameModel(RankTrace a, RankTrace b, String what) {
        assertEquals(a.device().size(), b.device().size(), what);
        for (int i = 0; i < a.device().size(); i++) {
            String at = what + ", interval " + i;
            assertEquals(a.device().start(i), b.device().start(i), at);
            assertEquals(a.device().end(i), b.device().end(i), at);
            assertEquals(a.device().lane(i), b.device().lane(i), at);
            assertEquals(a.device().kind(i), b.device().kind(i), at);
            assertEquals(a.device().name(i), b.device().name(i), at);
            assertEquals(a.device().nameId(i), b.device().nameId(i), at);
            assertEquals(a.device().launchNs(i), b.device().launchNs(i), at);
            assertEquals(a.device().launchThread(i), b.device().launchThread(i), at);
            assertEquals(a.device().collective(i), b.device().collective(i), at);
        }
        assertEquals(a.lanes(), b.lanes(), what);
        assertEquals(a.hostSpans(), b.hostSpans(), what);
        assertEquals(a.threads(), b.threads(), what);
        assertEquals(a.collectives().size(), b.collectives().size(), what);
        for (int k = 0; k < a.collectives().size(); k++) {
            Collective x = a.collectives().get(k);
            Collective y = b.collectives().get(k);
            assertEquals(List.of(x.id(), x.type(), x.name(), x.enqueueNs(), x.threadId(), x.bytes()),
                    List.of(y.id(), y.type(), y.name(), y.enqueueNs(), y.threadId(), y.bytes()), what + ", collective " + k);
            assertEquals(java.util.Arrays.toString(x.deviceIntervals()), java.util.Arrays.toString(y.deviceIntervals()), what);
        }
        assertEquals(java.util.Arrays.toString(a.unmatchedLaunchNs()), java.util.Arrays.toString(b.unmatchedLaunchNs()), what);
        assertEquals(a.warnings(), b.warnings(), what);
        assertEquals(a.rank(), b.rank(), what);
    }

    @Test
    void customStepPattern() throws Exception {
        Path f = seed("training-jitter");
        sql(f, "UPDATE NVTX_EVENTS SET text = replace(text, 'ProfilerStep#', 'train iter ') WHERE text LIKE 'ProfilerStep#%'");
        RankTrace none = new NsysReader().read(f).get(0);
        assertEquals(0, none.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count(),
                "'train iter N' is not a default step name");
        RankTrace custom = new NsysReader(Pattern.compile("^train iter \\d+$"), new io.overlapanalyze.formats.kernels.KernelClassifier())
                .read(f).get(0);
        assertEquals(5, custom.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count());
    }

    @Test
    void defaultStepNames() {
        Pattern p = NvtxNames.DEFAULT_STEP_PATTERN;
        for (String yes : List.of("ProfilerStep#4", "step 3", "Step_12", "iteration 7", "Iteration#2")) {
            assertTrue(p.matcher(NvtxNames.baseName(yes + ", op_id = 9")).matches(), yes);
        }
        for (String no : List.of("optimizer_step 3", "step_time", "aten::mm", "stepper 4")) {
            assertFalse(p.matcher(NvtxNames.baseName(no)).matches(), no);
        }
    }

    private static void sql(Path f, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + f); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    private static void assertOneLine(TraceFormatException e, Path f, String what) {
        String m = e.getMessage();
        assertFalse(m.contains("\n"), "one line: " + m);
        assertTrue(m.startsWith(f.toString() + ": "), "names the file: " + m);
        assertTrue(m.contains(what), "says what is wrong (" + what + "): " + m);
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] sha256(Path f) throws IOException, NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f));
    }
}
