package io.overlapanalyze.render.html;

import io.overlapanalyze.report.ContentionReport;
import io.overlapanalyze.report.NotAvailable;
import io.overlapanalyze.report.Parallelism;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Big reports stay small: the Beyond DDP block caps and collapses its rows. */
class BeyondSectionTest {
    private static StepReport step(int i, Long peak) {
        return StepReport.empty("ProfilerStep#" + i).withDeviceWindow(0, 1).withPeakAllocatedBytes(peak);
    }

    private static Element render(int steps, int kernels) {
        List<StepReport> s = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            s.add(step(i, i == 3 ? null : 1_000_000_000L + i));
        }
        List<ContentionReport> c = new ArrayList<>();
        for (int k = 0; k < kernels; k++) {
            c.add(ContentionReport.withoutShape("kernel_" + k, 5, 5, 120_000, 100_000, 20.0, 1000 - k));
        }
        RankReport r = new RankReport(0, "TRACE", "x", "KINETO", null, s, null, List.of(), List.of(), List.of(),
                new Parallelism(List.of("DDP"), List.of("why")), c,
                new NotAvailable("no all-gathers", "no send/recv", null, null, "no gradient collectives", null), null, List.of(), null, null);
        StringBuilder sb = new StringBuilder();
        BeyondSection.write(r, false, BeyondSection.rowsPerTable(1), sb);
        return Jsoup.parse(sb.toString()).selectFirst("details.beyond");
    }

    @Test
    void contentionTopTenThenCollapsed() {
        Element b = render(3, 13);
        assertTrue(!b.hasAttr("open"), "collapsed when asked");
        assertEquals(10, b.select("table.contention:not(.more) tr[data-kernel]").size());
        Element more = b.selectFirst("details.more table.contention.more");
        assertNotNull(more);
        assertEquals(List.of("kernel_10", "kernel_11", "kernel_12"), more.select("tr[data-kernel]").eachAttr("data-kernel"));
    }

    /** A faster row is marked and said faster; the shape and the net are in the page. */
    @Test
    void contentionShowsShapeFasterRowsAndTheNet() {
        List<ContentionReport> c = List.of(
                new ContentionReport("gemm", 16, 16, 120_000, 100_000, 20.0, 160_000, List.of(132, 1, 1),
                        List.of(128, 1, 1), false),
                new ContentionReport("gemm", 16, 16, 190_000, 200_000, -5.0, -80_000, List.of(264, 1, 1),
                        List.of(256, 1, 1), true));
        RankReport r = new RankReport(0, "TRACE", "x", "KINETO", null, List.of(step(0, 1L)), null, List.of(), List.of(),
                List.of(), null, c, NotAvailable.none(), null, List.of(), null, null);
        StringBuilder sb = new StringBuilder();
        BeyondSection.write(r, true, BeyondSection.rowsPerTable(1), sb);
        Element b = Jsoup.parse(sb.toString()).selectFirst("details.beyond");
        assertEquals(List.of("grid=[132,1,1] block=[128,1,1]", "grid=[264,1,1] block=[256,1,1]"),
                b.select("tr[data-kernel]").eachAttr("data-shape"));
        Element faster = b.selectFirst("tr.faster");
        assertNotNull(faster);
        assertTrue(faster.text().contains("5.0% faster"), faster.text());
        assertTrue(faster.text().contains("0.080 saved"), faster.text());
        assertEquals("80000", b.selectFirst("p.net").attr("data-ns"));
        assertTrue(b.selectFirst("p.net").text().contains("net per step: +0.080 ms"), b.text());
    }

    @Test
    void perStepTablesShowTwelveCollapseTheRestAndCapAtTheLimit() {
        int steps = BeyondSection.MAX_ROWS + 50;
        Element b = render(steps, 1);
        assertEquals(BeyondSection.SHOWN, b.select("table.memory:not(.more) tr[data-step]").size());
        assertEquals(BeyondSection.MAX_ROWS - BeyondSection.SHOWN,
                b.select("details.more table.memory.more tr[data-step]").size());
        assertTrue(b.text().contains("50 more steps not listed"), b.text());
        assertEquals(BeyondSection.MAX_ROWS, BeyondSection.rowsPerTable(4));
        assertEquals(12, BeyondSection.rowsPerTable(64), "64 ranks: the visible rows only");
        assertEquals(100, BeyondSection.rowsPerTable(8));
        // The step without a sample says so instead of a number.
        assertEquals("no allocator event in this step",
                b.selectFirst("table.memory tr[data-step=ProfilerStep#3] td.na").text());
        // The sparkline is binned to its maximum number of points, each the maximum of its bin.
        Element spark = b.selectFirst("svg.spark");
        assertEquals(String.valueOf(BeyondSection.SPARK_POINTS), spark.attr("data-points"));
        assertEquals(String.valueOf(1_000_000_000L + steps - 1), spark.attr("data-max-bytes"));
        assertEquals(String.valueOf(1_000_000_000L), spark.attr("data-min-bytes"), "249 peaks in 200 bins: the first bin holds step 0 alone");
    }
}
