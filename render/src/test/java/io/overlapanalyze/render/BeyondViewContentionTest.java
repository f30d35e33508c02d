package io.overlapanalyze.render;

import io.overlapanalyze.report.ContentionReport;
import io.overlapanalyze.report.NotAvailable;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contention table: honest signs, a net line, and no row that reads like another. */
class BeyondViewContentionTest {
    private static final String HEAD = "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_"; // 58 chars
    private static final String TAIL = "_align8>(Params)"; // 16 chars

    private static ContentionReport row(String kernel, List<Integer> grid, long om, long im, long extra) {
        return new ContentionReport(kernel, 10, 10, om, im, (om - im) * 100.0 / im, extra, grid,
                grid == null ? null : List.of(128, 1, 1), om < im);
    }

    private static BeyondView.Section section(List<ContentionReport> rows) {
        RankReport r = new RankReport(0, "TRACE", "x", "KINETO", null, List.of(StepReport.empty("s")), null, List.of(),
                List.of(), List.of(), null, rows, NotAvailable.none(), null, List.of(), null, null);
        return BeyondView.sections(r).stream().filter(s -> s.title().startsWith("compute slowdown")).findFirst()
                .orElseThrow();
    }

    /**
     * Names that differ only in their middle (the same first 40 and last 17 characters) and one
     * name in two shapes: every row's (kernel, shape) cells differ from every other row's.
     */
    @Test
    void noTwoRowsReadTheSameAfterShortening() {
        String x = HEAD + "128x128_32x3_tn" + TAIL;
        String y = HEAD + "256x128_64x3_tn" + TAIL;
        List<ContentionReport> rows = List.of(row(x, null, 120_000, 100_000, 20_000),
                row(y, null, 110_000, 100_000, 10_000), row(x, List.of(132, 1, 1), 105_000, 100_000, 5_000),
                row(x, List.of(264, 1, 1), 90_000, 100_000, -10_000));
        List<String[]> table = section(rows).table();
        assertEquals(5, table.size(), "header and four rows");
        HashSet<String> seen = new HashSet<>();
        for (String[] r : table.subList(1, table.size())) {
            assertTrue(r[0].length() <= BeyondView.KERNEL_WIDTH + 4, r[0]);
            assertTrue(seen.add(r[0] + " | " + r[1]), "repeated row " + r[0] + " | " + r[1]);
        }
        // The two unshaped names shorten alike: the second is numbered.
        assertEquals(table.get(1)[0] + " (2)", table.get(2)[0]);
    }

    @Test
    void fasterKernelsAreSaidFasterAndTheNetIsGiven() {
        List<ContentionReport> rows = List.of(row("gemm", List.of(132, 1, 1), 120_000, 100_000, 160_000),
                row("gemm", List.of(264, 1, 1), 190_000, 200_000, -80_000));
        BeyondView.Section s = section(rows);
        String[] slower = s.table().get(1);
        String[] faster = s.table().get(2);
        assertEquals("grid=[132,1,1] block=[128,1,1]", slower[1]);
        assertEquals("20.0% slower", slower[6]);
        assertEquals("+0.160 extra", slower[7]);
        assertEquals("grid=[264,1,1] block=[128,1,1]", faster[1]);
        assertEquals("5.0% faster", faster[6]);
        assertEquals("0.080 saved", faster[7]);
        assertEquals(List.of("net per step: +0.080 ms (slower kernels +0.160 ms, faster kernels -0.080 ms)"), s.lines());
        for (String[] r : s.table()) {
            for (String cell : r) {
                assertFalse(cell.startsWith("-"), "no negative slowdown or extra: " + String.join(" | ", r));
            }
        }
    }
}
