package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.sqlite.SharedExports;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged rows of a real Ascend DB export (a copy of the shared torch_npu capture, changed with
 * SQL): a NULL or text time is skipped with a counted warning instead of being read as 0 (a
 * 55-year step), a task ending before it starts is warned, a missing COMMUNICATION_OP table says
 * that communication is not measured, and a TASK view is refused.
 */
class AscendDbDamagedRowsTest {
    private static final String CAPTURE = "ascend/torch_npu_db_level1/rank0_ascend_pt";
    private static final String DB = "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";

    @TempDir
    Path dir;

    private static RankTrace read(Path db) throws Exception {
        List<RankTrace> ranks = new AscendReader().read(db);
        assertEquals(1, ranks.size());
        return ranks.get(0);
    }

    /** [intervals, first start, last end, communication intervals]. */
    private static long[] device(RankTrace t) {
        DeviceIntervals d = t.device();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long comm = 0;
        for (int i = 0; i < d.size(); i++) {
            first = Math.min(first, d.start(i));
            last = Math.max(last, d.end(i));
            comm += d.kind(i) == DeviceKind.COMM ? 1 : 0;
        }
        return new long[] {d.size(), first, last, comm};
    }

    private static String warning(RankTrace t, String part) {
        for (String w : t.warnings()) {
            if (w.contains(part)) {
                return w;
            }
        }
        throw new AssertionError("no warning containing \"" + part + "\" in " + t.warnings());
    }

    /** {@code n} compute TASK rows in the middle of the run (by start), as SQL. */
    private static String computeTasks(int n) {
        return "(SELECT rowid FROM TASK WHERE globalTaskId IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)"
                + " ORDER BY startNs LIMIT " + n + " OFFSET 50)";
    }

    @Test
    void aNullStartIsSkippedNotReadAsZero() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        long[] original = device(read(copy));
        SharedExports.sql(copy, "UPDATE TASK SET startNs = NULL WHERE rowid IN " + computeTasks(1));
        RankTrace t = read(copy);
        long[] d = device(t);
        assertEquals(original[0] - 1, d[0]);
        assertEquals(original[1], d[1], "the first start is not 0 (1970)");
        assertEquals(original[2], d[2]);
        assertTrue(warning(t, "TASK rows without an integer startNs or endNs skipped").contains("globalTaskId"),
                t.warnings().toString());
    }

    @Test
    void textTimesAreSkippedAndCounted() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        long[] original = device(read(copy));
        SharedExports.sql(copy, "UPDATE TASK SET endNs = 'n/a' WHERE rowid IN " + computeTasks(3));
        RankTrace t = read(copy);
        long[] d = device(t);
        assertEquals(original[0] - 3, d[0]);
        assertEquals(original[2] - original[1], d[2] - d[1]);
        assertTrue(warning(t, "TASK rows without an integer startNs or endNs skipped").contains("3 times"),
                t.warnings().toString());
    }

    @Test
    void aTaskEndingBeforeItStartsIsWarned() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        SharedExports.sql(copy, "UPDATE TASK SET endNs = startNs - 5 WHERE rowid IN " + computeTasks(1));
        RankTrace t = read(copy);
        assertTrue(warning(t, "TASK rows ending before they start").contains("endNs"), t.warnings().toString());
    }

    @Test
    void noCommunicationTableSaysCommunicationIsNotMeasured() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        assertTrue(device(read(copy))[3] > 0, "the capture has communication");
        SharedExports.sql(copy, "DROP TABLE COMMUNICATION_OP");
        RankTrace t = read(copy);
        assertEquals(0, device(t)[3]);
        assertTrue(warning(t, "communication cannot be classified").contains("no COMMUNICATION_OP table"));
    }

    @Test
    void aTaskViewIsRefusedAtOnce() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        SharedExports.sql(copy, "DROP TABLE TASK", "CREATE VIEW TASK AS WITH RECURSIVE r(startNs, endNs, deviceId,"
                + " connectionId, globalTaskId, taskType, streamId) AS (SELECT 0, 1, 0, 0, 0, 0, 0 UNION ALL"
                + " SELECT startNs + 1, endNs + 1, 0, 0, globalTaskId + 1, 0, 0 FROM r) SELECT * FROM r");
        TraceFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(TraceFormatException.class, () -> new AscendReader().read(copy)));
        assertTrue(e.getMessage().contains("TASK is a view, not a table"), e.getMessage());
    }

    /**
     * PYTORCH_API joined to CONNECTION_IDS on an id shared by every row multiplies them: the join
     * is bounded by what a file of this size can hold, and refused beyond it.
     */
    @Test
    void aJoinThatMultipliesCraftedRowsIsBounded() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        SharedExports.sql(copy, "UPDATE PYTORCH_API SET connectionId = 1", "UPDATE CONNECTION_IDS SET id = 1",
                "INSERT INTO CONNECTION_IDS SELECT * FROM CONNECTION_IDS", "INSERT INTO CONNECTION_IDS SELECT * FROM CONNECTION_IDS",
                "INSERT INTO CONNECTION_IDS SELECT * FROM CONNECTION_IDS", "INSERT INTO CONNECTION_IDS SELECT * FROM CONNECTION_IDS");
        long rows = SharedExports.scalar(copy, "SELECT (SELECT count(*) FROM PYTORCH_API) * (SELECT count(*) FROM CONNECTION_IDS)");
        org.junit.jupiter.api.Assumptions.assumeTrue(rows > 2_000_000, "join of " + rows + " rows: too small to test");
        TraceFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> assertThrows(TraceFormatException.class, () -> new AscendReader().read(copy)));
        assertTrue(e.getMessage().contains("rows, more than a file of this size can store"), e.getMessage());
    }
    /** [tasks with a known launch, earliest known launch]. */
    private static long[] launches(RankTrace t) {
        DeviceIntervals d = t.device();
        long known = 0;
        long first = Long.MAX_VALUE;
        for (int i = 0; i < d.size(); i++) {
            if (io.overlapanalyze.model.Time.isKnown(d.launchNs(i))) {
                known++;
                first = Math.min(first, d.launchNs(i));
            }
        }
        return new long[] {known, first};
    }

    /**
     * issue 29 item 7: {@code CANN_API.startNs} NULL was read as 0, a launch in 1970 for the 50
     * tasks that only a CANN call launches (the step moved from 137.9 to 132.2 ms). Never read as 0,
     * counted: with every start gone, each call takes its own end (the latest it can have started),
     * so no launch moves by more than an API call lasts and every task keeps a launch.
     */
    @Test
    void cannApiCallsWithoutAStartAreNotReadAsZero() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        long[] original = launches(read(copy));
        long cannOnly = SharedExports.scalar(copy, "SELECT count(*) FROM TASK WHERE connectionId IN (SELECT connectionId"
                + " FROM CANN_API) AND connectionId NOT IN (SELECT connectionId FROM CONNECTION_IDS)");
        assertEquals(50, cannOnly, "the capture has tasks that only a CANN call launched");
        long longestCall = SharedExports.scalar(copy, "SELECT max(endNs - startNs) FROM CANN_API");
        SharedExports.sql(copy, "UPDATE CANN_API SET startNs = NULL");
        RankTrace t = read(copy);
        long[] l = launches(t);
        assertEquals(original[0], l[0], "every task keeps a launch");
        assertTrue(l[1] >= original[1] && l[1] - original[1] <= longestCall, "no launch at 0, none moved by more"
                + " than a call lasts: " + l[1] + " vs " + original[1]);
        assertTrue(warning(t, "CANN_API rows without an integer startNs").contains("710 times"), t.warnings().toString());
    }

    /** One CANN call without a start takes the start of the call before it by connectionId (ids are issued in call order). */
    @Test
    void aCannCallWithoutAStartTakesTheCallBefore() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        long[] original = launches(read(copy));
        String second = "(SELECT connectionId FROM CANN_API ORDER BY connectionId LIMIT 1 OFFSET 1)";
        long first = SharedExports.scalar(copy, "SELECT startNs FROM CANN_API ORDER BY connectionId LIMIT 1");
        SharedExports.sql(copy, "UPDATE CANN_API SET startNs = NULL WHERE connectionId = " + second);
        RankTrace t = read(copy);
        assertEquals(original[0], launches(t)[0]);
        assertTrue(launches(t)[1] >= Math.min(first, original[1]));
        assertTrue(warning(t, "CANN_API rows without an integer startNs").contains("connectionId"), t.warnings().toString());
    }

    /** Half of PYTORCH_API without a start: those ops are skipped and counted, no host span starts at 0. */
    @Test
    void pytorchApiOpsWithoutAStartAreSkippedAndCounted() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        long rows = SharedExports.scalar(copy, "SELECT count(*) FROM PYTORCH_API WHERE rowid % 2 = 0");
        SharedExports.sql(copy, "UPDATE PYTORCH_API SET startNs = NULL WHERE rowid % 2 = 0");
        RankTrace t = read(copy);
        for (io.overlapanalyze.model.HostSpan span : t.hostSpans()) {
            assertTrue(span.startNs() > 1_700_000_000_000_000_000L, "a host span from 1970: " + span);
        }
        assertTrue(warning(t, "PYTORCH_API rows without an integer startNs skipped").contains(rows + " times"),
                t.warnings().toString());
    }

    /**
     * {@code STEP_TIME.endNs = 'abc'} (with no ProfilerStep op to take the step from) was a step
     * ending at 0: a complete 0.000 step. Now the row is skipped with a warning: no step range.
     */
    @Test
    void aStepTimeWithATextEndIsNoStep() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        SharedExports.sql(copy, "DELETE FROM PYTORCH_API WHERE name IN (SELECT id FROM STRING_IDS WHERE value LIKE"
                + " 'ProfilerStep#%')", "UPDATE STEP_TIME SET endNs = 'abc'");
        RankTrace t = read(copy);
        assertTrue(t.hostSpans().stream().noneMatch(s -> s.kind() == io.overlapanalyze.model.HostSpanKind.STEP),
                t.hostSpans().toString());
        assertEquals("STEP_TIME rows without an integer endNs skipped (no step range for them): 1 row (ProfilerStep#50)",
                warning(t, "STEP_TIME rows"));
    }

    /** The STEP_TIME row still gives the step when it is readable and PYTORCH_API's step op is not. */
    @Test
    void aStepOpWithoutAStartFallsBackToStepTime() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        SharedExports.sql(copy, "UPDATE PYTORCH_API SET startNs = 'n/a' WHERE name IN (SELECT id FROM STRING_IDS WHERE"
                + " value LIKE 'ProfilerStep#%')");
        RankTrace t = read(copy);
        List<io.overlapanalyze.model.HostSpan> steps = t.hostSpans().stream()
                .filter(s -> s.kind() == io.overlapanalyze.model.HostSpanKind.STEP).toList();
        assertEquals(1, steps.size(), steps.toString());
        // PROVENANCE.md: STEP_TIME 50: 1736410576386409710–1736410576538298460.
        assertEquals(1736410576386409710L, steps.get(0).startNs());
        assertEquals(1736410576538298460L, steps.get(0).endNs());
        assertTrue(warning(t, "PYTORCH_API rows without an integer startNs skipped").contains("ProfilerStep#50"));
    }

    /** A MEMORY_RECORD timestamp that is no integer is skipped and counted, not a sample in 1970. */
    @Test
    void memoryRecordsWithATextTimestampAreSkippedAndCounted() throws Exception {
        Path copy = SharedExports.copy(CAPTURE, dir).resolve(DB);
        SharedExports.sql(copy, "UPDATE MEMORY_RECORD SET timestamp = 'abc' WHERE rowid IN (SELECT rowid FROM MEMORY_RECORD"
                + " LIMIT 3)");
        RankTrace t = read(copy);
        io.overlapanalyze.model.MemorySamples m = t.memory();
        for (int i = 0; i < m.size(); i++) {
            assertTrue(m.timeNs(i) > 1_700_000_000_000_000_000L, "a sample from 1970 at " + i);
        }
        assertTrue(warning(t, "MEMORY_RECORD rows without an integer timestamp").contains("3 rows"), t.warnings().toString());
    }
}
