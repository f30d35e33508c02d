package io.overlapanalyze.render.html;

import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.ClockAlignment;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.MatchedCollective;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.SkewSummary;
import io.overlapanalyze.report.StepTail;
import io.overlapanalyze.report.Straggler;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cross-rank section of a job too big to list: summarised, binned, the rest collapsed or left to JSON. */
class CrossRankReportSectionTest {
    private static final int RANKS = 512;
    private static final int COLLECTIVES = 2000;

    private static CrossRankReport bigJob() {
        List<Integer> ranks = new ArrayList<>();
        Map<Integer, Long> offsets = new TreeMap<>();
        Map<Integer, Integer> counts = new TreeMap<>();
        List<Straggler> stragglers = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            ranks.add(r);
            offsets.put(r, (r % 7 - 3) * 10_000L);
            counts.put(r, COLLECTIVES);
            stragglers.add(new Straggler(r, 1000L * r, r % 3, 1000L * (RANKS - r), 5_000_000, 1_000_000, 4_000_000, 0.2));
        }
        List<MatchedCollective> collectives = new ArrayList<>();
        for (int i = 0; i < COLLECTIVES; i++) {
            Map<Integer, Long> waits = new TreeMap<>();
            for (int r = 0; r < RANKS; r++) {
                waits.put(r, r == 17 ? 0 : 50_000L + (i * 31L + r * 17L) % 400_000);
            }
            collectives.add(new MatchedCollective("0 (default_pg)", i, "ALL_REDUCE", "ProfilerStep#" + i / 4,
                    26_214_400L, RANKS, 450_000L, 1_000L, 1_000_000L, 17, 26.2, 52.3, waits));
        }
        List<Mismatch> mismatches = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            mismatches.add(new Mismatch("0 (default_pg)", COLLECTIVES + i, Mismatch.MismatchKind.MISSING,
                    Mismatch.Severity.ERROR, "ProfilerStep#500", List.of(), List.of(3), 0, "rank 3 stops"));
        }
        List<StepTail> tails = new ArrayList<>();
        for (int s = 0; s < 1200; s++) {
            tails.add(new StepTail("ProfilerStep#" + s, s % RANKS, 1_000_000L + s, "LAST_BUCKET", 900_000, RANKS));
        }
        return new CrossRankReport(ranks, RANKS, List.of(), List.of(),
                new ClockAlignment(true, COLLECTIVES, 2_000L, "aligned on " + COLLECTIVES + " collectives every rank joined"),
                offsets, List.of(new GroupSummary("0 (default_pg)", false, ranks, "SEQUENCE", counts, COLLECTIVES, null)),
                mismatches, new SkewSummary(COLLECTIVES, 300_000L, 450_000L, "0 (default_pg)", 3L, "ALL_REDUCE",
                "ProfilerStep#0", 17, 1_000L, 123_000_000L, 0), stragglers, List.of(), collectives, tails, List.of(),
                List.of(), null);
    }

    @Test
    void bigJobIsSummarisedAndBinned() {
        StringBuilder sb = new StringBuilder();
        new CrossRankReportSection().write(new AnalysisReport(AnalysisReport.SCHEMA_VERSION, "t", List.of(), bigJob(), List.of(), null),
                sb);
        String html = sb.toString();
        assertTrue(html.length() < 1_500_000, "section of 512 ranks x 2000 collectives: " + html.length() + " chars");
        Document doc = Jsoup.parseBodyFragment(html);

        Element waits = doc.select("svg.heatmap[data-kind=waits]").first();
        assertEquals(String.valueOf(RANKS), waits.attr("data-rows"));
        assertEquals(String.valueOf(COLLECTIVES), waits.attr("data-cols"));
        assertTrue(waits.previousElementSibling().text().contains("ranks are binned (128 rows) and collectives are "
                + "binned (200 columns)"), waits.previousElementSibling().text());
        assertTrue(waits.select("text").size() <= 128 + 3, "row labels of the bins, first/last column, scale");
        assertTrue(waits.text().contains("each cell the largest of its bin"));

        assertEquals(String.valueOf(CrossRankReportSection.MAX_BARS), doc.select("svg.offsets").attr("data-bars"));
        assertEquals(String.valueOf(RANKS), doc.select("svg.offsets").attr("data-ranks"));
        assertEquals(RANKS, doc.select("details.more table.offsets tr[data-rank]").size(), "offsets collapsed");

        assertEquals(CrossRankReportSection.SHOWN, doc.select("table.stragglers:not(.more) tr[data-rank]").size());
        assertEquals(RANKS - CrossRankReportSection.SHOWN, doc.select("table.stragglers.more tr[data-rank]").size());
        assertEquals("0", doc.select("table.stragglers tr[data-rank]").first().attr("data-rank"));

        assertEquals(CrossRankReportSection.MAX_LIST, doc.select("tr.mismatch").size(), "capped");
        assertTrue(doc.text().contains("500 more mismatches not listed"), "the rest left to JSON");
        assertEquals(CrossRankReportSection.MAX_MISMATCH_DETAILS, doc.select("details.mismatch-ranks").size());

        assertEquals(CrossRankReportSection.SHOWN, doc.select("table.tails:not(.more) tr[data-step]").size());
        assertEquals("ProfilerStep#1199", doc.select("table.tails:not(.more) tr[data-step]").first().attr("data-step"),
                "the longest tails first");
        assertTrue(doc.text().contains("200 more steps not listed"));
        assertEquals("0–511", doc.select("table.groups td").get(1).text());
        assertEquals("2000 each", doc.select("table.groups td").get(4).text());
    }

    @Test
    void rankRanges() {
        assertEquals("0–3, 5, 7, 8, 10–12", CrossRankReportSection.ranges(List.of(12, 0, 1, 2, 3, 5, 7, 8, 10, 11)));
        assertEquals("", CrossRankReportSection.ranges(List.of()));
    }
}
