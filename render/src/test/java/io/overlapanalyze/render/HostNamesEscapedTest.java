package io.overlapanalyze.render;

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

/** A host range's name from the trace reaches "where the time went" shown, never acting on the terminal. */
class HostNamesEscapedTest {
    private static final String HOSTILE = "## fwd \u001b]0;owned\u0007\n| *x* |";

    private static AnalysisReport report() {
        StepBreakdown b = new StepBreakdown(2_000_000, 0, 1_000_000, 0, 7_000_000);
        IdleBreakdown idle = new IdleBreakdown(7_000_000, 0, 0, List.of(new HostActivity(HOSTILE, 7_000_000)));
        Totals.Medians md = new Totals.Medians(10_000_000L, null, 1_000_000L, null, null, null, 10_000_000L, b,
                7_000_000L, 0L);
        Totals t = new Totals(1, 10_000_000, 1_000_000, 2_000_000, 0, 1_000_000, 0, 7_000_000, 3_000_000, 0, 0.0,
                md, 10_000_000L, b, idle);
        RankReport r = new RankReport(0, "TRACE", "t.json", "KINETO", null, List.of(StepReport.empty("s")), t,
                List.of(), List.of(), List.of(), null, List.of(), null, null, List.of(), null, null);
        return new AnalysisReport(AnalysisReport.SCHEMA_VERSION, "t", List.of(r), null, List.of(), null);
    }

    @Test
    void textShowsControlCharacters() throws Exception {
        StringWriter out = new StringWriter();
        new TextRenderer().render(report(), out);
        String text = out.toString();
        assertTrue(text.contains("## fwd \\x1b]0;owned\\x07\\x0a| *x* |"), text);
        assertFalse(text.contains("\u001b") || text.contains("\u0007"), text);
    }

    @Test
    void markdownKeepsTheNameOnItsLineAndOutOfTables() throws Exception {
        StringWriter out = new StringWriter();
        new MarkdownRenderer().render(report(), out);
        String md = out.toString();
        assertTrue(md.contains("## fwd \\x1b]0;owned\\x07\\x0a\\| \\*x\\* \\|"), md);
        assertFalse(md.contains("\u001b") || md.contains("\nowned"), md);
    }
}
