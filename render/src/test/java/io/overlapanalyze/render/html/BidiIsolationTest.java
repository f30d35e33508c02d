package io.overlapanalyze.render.html;

import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Totals;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29, item 10: a U+202E (right-to-left override) in a name from the trace cannot reorder
 * the page around it (it is shown as {@code \}{@code u202e}), and a right-to-left name is isolated
 * (U+2068 .. U+2069) so it keeps its direction without moving the numbers beside it.
 */
class BidiIsolationTest {
    private static final String OVERRIDE = "fwd\u202e 7.500 ms";
    private static final String HEBREW = "שלב קדימה";

    private static AnalysisReport report() {
        StepBreakdown b = new StepBreakdown(2_000_000, 0, 1_000_000, 0, 7_000_000);
        IdleBreakdown idle = new IdleBreakdown(7_000_000, 0, 0, List.of(new HostActivity(OVERRIDE, 4_000_000),
                new HostActivity(HEBREW, 3_000_000)));
        Totals.Medians md = new Totals.Medians(10_000_000L, null, 1_000_000L, null, null, null, 10_000_000L, b,
                7_000_000L, 0L);
        Totals t = new Totals(1, 10_000_000, 1_000_000, 2_000_000, 0, 1_000_000, 0, 7_000_000, 3_000_000, 0, 0.0,
                md, 10_000_000L, b, idle);
        RankReport r = new RankReport(0, "TRACE", "rank\u202e0.json", "KINETO", null, List.of(StepReport.empty(HEBREW)),
                t, List.of(), List.of(), List.of(), null, List.of(), null, null, List.of(), null, null);
        return new AnalysisReport(AnalysisReport.SCHEMA_VERSION, "t", List.of(r), null, List.of(), null);
    }

    @Test
    void anOverrideIsShownAndRightToLeftNamesAreIsolated() throws Exception {
        StringWriter out = new StringWriter();
        new HtmlRenderer(new TimelineIndex()).render(report(), out);
        String page = out.toString();
        assertFalse(page.contains("\u202e"), "no raw right-to-left override on the page");
        assertTrue(page.contains("rank\\u202e0.json"), "the file name, its override shown");
        assertTrue(page.contains("\u2068" + HEBREW + "\u2069"), "the Hebrew name isolated");
        assertFalse(page.replace("\u2068" + HEBREW + "\u2069", "").contains(HEBREW), "every time it is shown");
    }
}
