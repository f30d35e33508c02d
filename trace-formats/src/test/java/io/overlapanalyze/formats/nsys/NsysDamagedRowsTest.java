package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.sqlite.SharedExports;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged rows of a real Nsight export (a copy, changed with SQL) are skipped with a warning that
 * counts them, never read as 0; missing names say that communication cannot be classified.
 * Reference: PROVENANCE.md, {@code nsys2026.2.1_torchrun2gpu_nccl_before.sqlite}: pid 144 has 1,993
 * kernels in a 299,848.812 µs kernel window, 33 of them NCCL.
 */
class NsysDamagedRowsTest {
    private static final String EXPORT = "nsys/nsys2026.2.1_torchrun2gpu_nccl_before.sqlite";
    private static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    /** globalPid of process 144 (pid in bits 24-47) and one of its threads. */
    private static final long PID_144 = 144L << 24 | 1L << 48;
    private static final long TID_144 = PID_144 + 145;

    @TempDir
    Path dir;

    private static RankTrace pid144(Path export) throws Exception {
        for (NsysReader.NsysRank r : new NsysReader().readRanks(export)) {
            if (r.pid() == 144) {
                return r.trace();
            }
        }
        throw new AssertionError("no rank for pid 144");
    }

    /** [kernels, first kernel start, last kernel end, NCCL kernels]. */
    private static long[] kernels(RankTrace t) {
        DeviceIntervals d = t.device();
        long n = 0;
        long comm = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < d.size(); i++) {
            if (d.kind(i) == DeviceKind.COMPUTE || d.kind(i) == DeviceKind.COMM) {
                n++;
                comm += d.kind(i) == DeviceKind.COMM ? 1 : 0;
                first = Math.min(first, d.start(i));
                last = Math.max(last, d.end(i));
            }
        }
        return new long[] {n, first, last, comm};
    }

    private static String warning(RankTrace t, String part) {
        for (String w : t.warnings()) {
            if (w.contains(part)) {
                return w;
            }
        }
        throw new AssertionError("no warning containing \"" + part + "\" in " + t.warnings());
    }

    @Test
    void theReferenceNumbersHoldOnTheOriginal() throws Exception {
        long[] k = kernels(pid144(SharedExports.original(EXPORT)));
        assertEquals(1993, k[0]);
        assertEquals(299_848_812, k[2] - k[1]);
        assertEquals(33, k[3]);
    }

    /**
     * {@code start = 'n/a'} in one kernel row read as 0: a kernel at the session start, and the
     * 299.8 ms window became a minute. The row is skipped and counted; nothing else changes.
     */
    @Test
    void aTextStartIsSkippedWithACountedWarning() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        // A kernel in the middle of pid 144's run, so that its window stays what it was.
        SharedExports.sql(copy, "UPDATE " + KERNEL + " SET start = 'n/a' WHERE rowid = (SELECT rowid FROM " + KERNEL
                + " WHERE globalPid = " + PID_144 + " ORDER BY start LIMIT 1 OFFSET 1000)");
        RankTrace t = pid144(copy);
        long[] k = kernels(t);
        assertEquals(1992, k[0]);
        assertEquals(299_848_812, k[2] - k[1]);
        // With its count, even of one (issue 29 item 10).
        assertEquals(KERNEL + " rows without an integer start or end skipped: 1 row", warning(t, KERNEL + " rows without"));
    }

    @Test
    void aTextEndIsSkippedToo() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "UPDATE " + KERNEL + " SET \"end\" = '12 ms' WHERE rowid IN (SELECT rowid FROM " + KERNEL
                + " WHERE globalPid = " + PID_144 + " ORDER BY start LIMIT 2 OFFSET 500)");
        RankTrace t = pid144(copy);
        assertEquals(1991, kernels(t)[0]);
        assertTrue(warning(t, KERNEL + " rows without an integer start or end skipped").contains("2 times"));
    }

    /** A real start (half a nanosecond off) is not an integer time: skipped and counted, never truncated to one. */
    @Test
    void aRealStartIsSkippedToo() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "UPDATE " + KERNEL + " SET start = start + 0.5 WHERE rowid = (SELECT rowid FROM " + KERNEL
                + " WHERE globalPid = " + PID_144 + " ORDER BY start LIMIT 1 OFFSET 700)");
        RankTrace t = pid144(copy);
        assertEquals(1992, kernels(t)[0]);
        // With its count, even of one (issue 29 item 10).
        assertEquals(KERNEL + " rows without an integer start or end skipped: 1 row", warning(t, KERNEL + " rows without"));
    }

    /**
     * Skipped rows are reported in the order a time-sorted read meets them: a row ending before it
     * starts (the 101st kernel) comes before a row with a text end that starts later (the 901st).
     */
    @Test
    void skippedRowsAreWarnedInTheOrderOfTheirStarts() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "UPDATE " + KERNEL + " SET \"end\" = start - 1 WHERE rowid = (SELECT rowid FROM " + KERNEL
                + " WHERE globalPid = " + PID_144 + " ORDER BY start LIMIT 1 OFFSET 100)");
        SharedExports.sql(copy, "UPDATE " + KERNEL + " SET \"end\" = 'n/a' WHERE rowid = (SELECT rowid FROM " + KERNEL
                + " WHERE globalPid = " + PID_144 + " ORDER BY start LIMIT 1 OFFSET 900)");
        RankTrace t = pid144(copy);
        assertEquals(1991, kernels(t)[0]);
        int before = t.warnings().indexOf(warning(t, KERNEL + " rows ending before they start skipped"));
        int text = t.warnings().indexOf(warning(t, KERNEL + " rows without an integer start or end skipped"));
        assertTrue(before >= 0 && before < text, t.warnings().toString());
    }

    /** No StringIds table: every kernel unnamed, all compute; the report must not pass 0 communication off as real. */
    @Test
    void noStringTableSaysCommunicationCannotBeClassified() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "DROP TABLE StringIds");
        RankTrace t = pid144(copy);
        assertEquals(0, kernels(t)[3]);
        assertTrue(warning(t, "communication cannot be classified").contains("no StringIds table"),
                t.warnings().toString());
        assertTrue(t.commUnclassified() != null && t.commUnclassified().contains("no StringIds table"),
                "the model says so too, for the analysis: " + t.commUnclassified());
    }

    /** The NCCL kernel's name string is gone (a trimmed export): 33 NCCL kernels counted as compute, said so. */
    @Test
    void aDanglingKernelNameSaysCommunicationCannotBeClassified() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "DELETE FROM StringIds WHERE value LIKE 'ncclDevKernel%'");
        RankTrace t = pid144(copy);
        assertEquals(0, kernels(t)[3]);
        String w = warning(t, "communication cannot be classified");
        // 11 distinct kernel names in the export (both processes), 1 of them the NCCL kernel's.
        assertTrue(w.contains("1 of 11 kernel names are not in StringIds"), w);
    }

    /** A ProfilerStep range without an end (the capture stopped inside it) is warned, not dropped silently. */
    @Test
    void aStepRangeWithoutAnEndIsWarned() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "INSERT INTO NVTX_EVENTS (start, \"end\", eventType, text, globalTid, domainId)"
                + " VALUES (60200000000, NULL, 59, 'ProfilerStep#7', " + TID_144 + ", 0)");
        RankTrace t = pid144(copy);
        assertTrue(warning(t, "step ranges without an end").contains("ProfilerStep#7"), t.warnings().toString());
        List<String> none = pid144(SharedExports.original(EXPORT)).warnings().stream()
                .filter(w -> w.contains("step ranges without an end")).toList();
        assertEquals(List.of(), none);
    }

    @Test
    void aStepRangeWithATextStartIsWarned() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "INSERT INTO NVTX_EVENTS (start, \"end\", eventType, text, globalTid, domainId)"
                + " VALUES ('soon', 60300000000, 59, 'ProfilerStep#8', " + TID_144 + ", 0)");
        RankTrace t = pid144(copy);
        assertTrue(warning(t, "NVTX ranges without an integer start skipped").contains("ProfilerStep#8"),
                t.warnings().toString());
    }
    private static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";

    /** [kernels with a known launch, earliest launch] of pid 144. */
    private static long[] launches(RankTrace t) {
        DeviceIntervals d = t.device();
        long known = 0;
        long first = Long.MAX_VALUE;
        for (int i = 0; i < d.size(); i++) {
            if (d.kind(i) == DeviceKind.COMPUTE || d.kind(i) == DeviceKind.COMM) {
                long l = d.launchNs(i);
                if (io.overlapanalyze.model.Time.isKnown(l)) {
                    known++;
                    first = Math.min(first, l);
                }
            }
        }
        return new long[] {known, first};
    }

    /** The rowid of the launch call of pid 144's kernel number {@code n} (by start), as SQL. */
    private static String launchOfKernel(int n) {
        return "(SELECT r.rowid FROM " + RUNTIME + " r JOIN (SELECT correlationId, globalPid FROM " + KERNEL
                + " WHERE globalPid = " + PID_144 + " ORDER BY start LIMIT 1 OFFSET " + n + ") k"
                + " ON r.correlationId = k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216"
                + " AND r.eventClass IN (0, 1) LIMIT 1)";
    }

    /**
     * issue 29 item 7: a launch call with {@code start = 'n/a'} was read as 0, a launch at the
     * session start (60 s before the others), which moved its kernel out of its step. It is never
     * read as 0: the call lies between its process's calls before and after it by correlationId,
     * and takes the start of the one before, so no launch moves before the first and the kernel
     * keeps a launch; the warning counts it.
     */
    @Test
    void aRuntimeRowWithATextStartIsNotReadAsZero() throws Exception {
        long[] original = launches(pid144(SharedExports.original(EXPORT)));
        Path copy = SharedExports.copy(EXPORT, dir);
        long corr = SharedExports.scalar(copy, "SELECT correlationId FROM " + RUNTIME + " WHERE rowid = " + launchOfKernel(1000));
        // The start of the call of pid 144 just before it by correlationId: the bound it takes.
        long before = SharedExports.scalar(copy, "SELECT start FROM " + RUNTIME + " WHERE globalTid / 16777216 = "
                + (PID_144 / 16777216) + " AND correlationId < " + corr + " AND eventClass IN (0, 1)"
                + " ORDER BY correlationId DESC LIMIT 1");
        long after = SharedExports.scalar(copy, "SELECT start FROM " + RUNTIME + " WHERE rowid = " + launchOfKernel(1000));
        assertTrue(before <= after, before + " > " + after);
        SharedExports.sql(copy, "UPDATE " + RUNTIME + " SET start = 'n/a' WHERE rowid = " + launchOfKernel(1000));
        RankTrace t = pid144(copy);
        long[] k = kernels(t);
        assertEquals(1993, k[0], "the kernel is kept");
        assertEquals(299_848_812, k[2] - k[1]);
        long[] l = launches(t);
        assertEquals(original[0], l[0], "its launch is bounded, not lost");
        assertEquals(original[1], l[1], "no launch at the session start");
        assertTrue(warning(t, RUNTIME + " rows without an integer start").contains("correlationId " + corr),
                t.warnings().toString());
    }

    @Test
    void runtimeRowsWithTextOrRealStartsAreCounted() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "UPDATE " + RUNTIME + " SET start = 'abc' WHERE rowid IN (" + launchOfKernel(300) + ", "
                + launchOfKernel(301) + ")", "UPDATE " + RUNTIME + " SET start = start + 0.5 WHERE rowid = " + launchOfKernel(1500));
        RankTrace t = pid144(copy);
        assertTrue(warning(t, RUNTIME + " rows without an integer start").contains("3 times"),
                t.warnings().toString());
    }

    /** An NVTX end that is there but no integer is damage: counted, not taken for an open range. */
    @Test
    void anNvtxRangeWithATextEndIsSkippedAndCounted() throws Exception {
        Path copy = SharedExports.copy(EXPORT, dir);
        SharedExports.sql(copy, "INSERT INTO NVTX_EVENTS (start, \"end\", eventType, text, globalTid, domainId)"
                + " VALUES (60200000000, 'abc', 59, 'ProfilerStep#9', " + TID_144 + ", 0)");
        RankTrace t = pid144(copy);
        assertTrue(warning(t, "NVTX ranges without an integer end skipped").contains("ProfilerStep#9"),
                t.warnings().toString());
        assertTrue(t.warnings().stream().noneMatch(w -> w.contains("step ranges without an end")), t.warnings().toString());
    }
}
