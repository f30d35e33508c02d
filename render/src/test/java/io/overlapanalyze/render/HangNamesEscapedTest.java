package io.overlapanalyze.render;

import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.HangReport;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29, item 5, the hang section: process-group names, descriptions, operations, shapes and
 * dtypes come from Flight Recorder dumps and reach the text and markdown reports shown, never
 * acting on the terminal nor starting a line of their own.
 */
class HangNamesEscapedTest {
    private static final String HOSTILE = "\u001b]0;owned\u0007\r\n# PASS\n![x](http://evil/x.png)<b>\u202e";

    private static AnalysisReport report() {
        HangReport.RankProgress p = new HangReport.RankProgress(1, 7L, 7L, 6L, "op" + HOSTILE, true);
        HangReport.HangDivergence d = new HangReport.HangDivergence("pg" + HOSTILE, "desc" + HOSTILE, List.of(0, 1),
                false, "MISSING", 7, "all_reduce" + HOSTILE, "[4]" + HOSTILE, "Float" + HOSTILE, List.of(0),
                List.of(), List.of(1), 1, List.of(p));
        HangReport.HangRank r = new HangReport.HangRank(0, List.of("pg" + HOSTILE), List.of(), "MISSING_EVERYWHERE",
                "last" + HOSTILE);
        HangReport hang = new HangReport("verdict" + HOSTILE, List.of(d), List.of(r), List.of("note" + HOSTILE));
        return new AnalysisReport(AnalysisReport.SCHEMA_VERSION, "t", List.of(), null, List.of(), hang);
    }

    private static void assertNoRawControl(String text) {
        assertFalse(text.chars().anyMatch(c -> (c < 0x20 && c != '\n') || c == 0x202e), text);
    }

    @Test
    void textShowsTheNames() throws Exception {
        StringWriter out = new StringWriter();
        new TextRenderer().render(report(), out);
        String text = out.toString();
        assertNoRawControl(text);
        assertTrue(text.contains("group pg\\x1b]0;owned\\x07\\x0d\\x0a# PASS\\x0a![x](http://evil/x.png)<b>\\u202e"
                + " desc\\x1b]0;owned"), text);
        assertFalse(text.lines().anyMatch(l -> l.startsWith("# PASS")), text);
    }

    @Test
    void markdownHasNoHeadlineImageOrHtmlFromTheNames() throws Exception {
        StringWriter out = new StringWriter();
        new MarkdownRenderer().render(report(), out);
        String md = out.toString();
        assertNoRawControl(md);
        assertEquals(List.of("# overlap-analyze report", "## Hang (Flight Recorder)"),
                md.lines().filter(l -> l.startsWith("#")).toList(), md);
        // Only escaped forms: "!\[x]" (no image), "\<b>" (no HTML).
        assertFalse(md.contains("![x]") || md.replace("\\<", "").contains("<b>"), md);
        assertTrue(md.contains("group pg\\x1b]0;owned\\x07\\x0d\\x0a# PASS\\x0a!\\[x](http://evil/x.png)\\<b>\\u202e"),
                md);
    }
}
