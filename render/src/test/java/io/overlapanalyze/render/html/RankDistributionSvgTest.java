package io.overlapanalyze.render.html;

import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.RankRow;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ranks picture of the job overview, from overviews built by hand: bars in order of median step
 * period (longest first), values on few bars, the straggler and the error rank marked and named,
 * and a thousand ranks binned into a bounded number of bars.
 */
class RankDistributionSvgTest {
    private static final long MS = 1_000_000L;

    private static RankRow row(int rank, long periodMs, Double idle, Long exposedNs, boolean straggler, boolean error) {
        return new RankRow(rank, 10, periodMs * MS, periodMs * MS, idle, exposedNs, null, null, null, straggler, error);
    }

    private static JobOverview overview(List<RankRow> rows, JobOverview.Spread spread) {
        return new JobOverview(rows.size(), rows.size(), List.of("kineto"), 10, 10, spread, List.of(), rows,
                rows.get(0).rank(), 0);
    }

    @Test
    void fourRanksAreFourLabelledBarsLongestFirst() {
        // Periods 8, 9, 10 and 11 ms on ranks 0..3; exposed 2 ms of rank 0's 8 ms is 25.0 %.
        List<RankRow> rows = List.of(row(3, 11, 0.5, 2 * MS, true, false), row(2, 10, 0.1, 2 * MS, false, true),
                row(1, 9, null, null, false, false), row(0, 8, 0.25, 2 * MS, false, false));
        Document doc = Jsoup.parse(RankDistributionSvg.render(overview(rows,
                new JobOverview.Spread(9_500_000L, 11 * MS, 11 * MS, 3, 8 * MS, 4))));
        Element wide = doc.selectFirst("svg.ranksdist.wide");
        assertEquals("3,2,1,0", wide.attr("data-order"));
        assertEquals("4", wide.attr("data-bars"));
        assertEquals(String.valueOf(15 * MS), wide.attr("data-axis-top-ns"), "11 ms in at most four 1-2-5 steps: "
                + "three of 5 ms");
        List<String> values = wide.select("text.val").eachText();
        assertEquals(List.of("11.000", "10.000", "9.000", "8.000"), values.subList(0, 4), "each bar's period");
        assertTrue(values.containsAll(List.of("50.0%", "10.0%", "25.0%")), "idle shares: " + values);
        assertTrue(values.contains("20.0%") && values.contains("18.2%"), "exposed 2 of 10 and of 11 ms: " + values);
        assertEquals(2, wide.select("path.na").size(), "rank 1's shares are unknown: a stub in each strip, not zero");
        assertEquals("▲ 3 straggler, 2 ERROR", wide.selectFirst("text.mkc").text(), "in the overview's order");
        assertEquals(List.of("3", "2"), wide.select("text.mkl").eachText(), "the straggler and the error rank");
        assertEquals(1, wide.select("path.pb.st").size());
        assertEquals(1, wide.select("path.pb.er").size());
        assertEquals("9500000", wide.selectFirst("g.ref-median").attr("data-ns"));
        assertTrue(wide.select("text.refl").eachText().contains("median 9.500 ms"));
        Element narrow = doc.selectFirst("svg.ranksdist.narrow");
        assertTrue(narrow.select("text.refl").text().contains("median 9.500 ms, p90 11.000 ms"), narrow.text());
    }

    @Test
    void aThousandRanksAreBinnedAndTheMarkedRanksStillNamed() {
        List<RankRow> rows = new ArrayList<>();
        rows.add(row(3, 10, 0.1, MS, false, true));
        rows.add(row(700, 12, 0.2, MS, true, false));
        for (int r = 0; r < 1024; r++) {
            if (r != 3 && r != 700) {
                rows.add(row(r, 10, 0.1, MS, false, false));
            }
        }
        Document doc = Jsoup.parse(RankDistributionSvg.render(overview(rows,
                new JobOverview.Spread(10 * MS, 10 * MS, 12 * MS, 700, 10 * MS, 1024))));
        Element wide = doc.selectFirst("svg.ranksdist.wide");
        assertEquals("1024", wide.attr("data-ranks"));
        assertEquals(String.valueOf(RankDistributionSvg.MAX_BARS), wide.attr("data-bars"));
        assertEquals("", wide.attr("data-order"), "binned: no per-rank order");
        assertTrue(wide.select("text.val").isEmpty(), "no value on 500 bars");
        // 700 (longest) is the first bar, rank 3 the third (two or three ranks a bar): too close for two labels.
        assertEquals(List.of("700"), wide.select("text.mkl").eachText());
        assertEquals(2, wide.selectFirst("path.mark").attr("d").chars().filter(c -> c == 'M').count(), "two marks");
        assertEquals("▲ 3 ERROR, 700 straggler", wide.selectFirst("text.mkc").text(), "the caption names both");
        assertTrue(wide.text().contains("binned into 500 bars"), wide.text());
        Element narrow = doc.selectFirst("svg.ranksdist.narrow");
        assertEquals(String.valueOf(RankDistributionSvg.NARROW.maxBars()), narrow.attr("data-bars"));
        assertTrue(wide.html().length() + narrow.html().length() < 200_000, "bounded: " + wide.html().length());
    }

    @Test
    void noPeriodNoPicture() {
        List<RankRow> rows = List.of(new RankRow(0, 0, null, null, null, null, null, null, null, false, false),
                new RankRow(1, 0, null, null, null, null, null, null, null, false, false));
        assertNull(RankDistributionSvg.render(overview(rows, null)));
    }
}
