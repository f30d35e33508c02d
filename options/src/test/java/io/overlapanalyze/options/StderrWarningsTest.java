package io.overlapanalyze.options;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overlapanalyze.formats.input.Warnings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 10: reader warnings about skipped rows say how many (one included), and a file's
 * warning shared by its ranks is printed once, not once per rank.
 */
class StderrWarningsTest {
    @Test
    void skippedRowsAreCountedEvenWhenOne() {
        Warnings w = new Warnings();
        w.add("TASK rows without an integer start or end skipped", "", 1);
        w.add("TASK rows ending before they start skipped", "start 5, end 3", 1);
        w.add("events without \"ts\" skipped", "event 7");
        assertEquals(List.of("TASK rows without an integer start or end skipped: 1 row",
                "TASK rows ending before they start skipped: 1 row (start 5, end 3)",
                "events without \"ts\" skipped: event 7"), w.lines());
    }

    private static io.overlapanalyze.report.RankReport rank(int id, String source, List<String> warnings) {
        return new io.overlapanalyze.report.RankReport(id, "TRACE", source, "NSYS", 2, List.of(), null, List.of(), warnings,
                null, null, null, null, null, null, null, null);
    }

    @Test
    void aLineSharedByTheRanksOfOneFileIsPrintedOnce() {
        StringWriter err = new StringWriter();
        // Two processes of one Nsight export: the file-level warning is in both ranks.
        String shared = "KERNEL rows without an integer start or end skipped: 1 row";
        StderrWarnings.ofRanks(new PrintWriter(err, true), List.of(
                rank(0, "export.sqlite", List.of(shared)),
                rank(1, "export.sqlite", List.of(shared, "rank 1 only")),
                rank(0, "other.sqlite", List.of(shared))));
        assertEquals(List.of("overlap-analyze: warning: export.sqlite: " + shared,
                "overlap-analyze: warning: export.sqlite: rank 1 only",
                "overlap-analyze: warning: other.sqlite: " + shared), err.toString().lines().toList());
    }
}
