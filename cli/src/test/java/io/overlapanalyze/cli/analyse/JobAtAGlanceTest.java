package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.html.HtmlRenderer;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.render.MarkdownRenderer;
import io.overlapanalyze.render.TextRenderer;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.report.AnalysisReport;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's report reads top-down: the job first (inputs, step period across ranks, cross-rank
 * errors, findings, ranks worst first), then the ranks asked for in detail. The ground truth is
 * the generated job's own parameters: rank 700 starts every step late (the straggler), rank 3
 * issues two buckets in swapped order in step 4 (the error).
 */
class JobAtAGlanceTest {
    private static final int RANKS = 1024;
    private static final int STEPS = 10;
    private static final int SLOW = 700;
    private static final int REORDERED = 3;

    @TempDir
    static Path dir;
    private static Path job;
    /** The job analysed once; each test renders it as a layout asks. */
    private static AnalysisReport analysed;
    /** Its HTML page, drawn with every rank's model at hand. */
    private static String page;

    @BeforeAll
    static void writeJob() throws IOException {
        job = dir.resolve("job");
        JobWriter.write(Job.parse("""
                {"name": "glance", "ranks": %d, "scenario": "seed-1ms", "steps": %d,
                 "slowRank": %d, "delayUs": 400,
                 "bucketTypes": ["allreduce", "reducescatter", "allreduce"],
                 "perturbations": [{"kind": "reorder", "rank": %d, "step": 4, "bucket": 2}]}
                """.formatted(RANKS, STEPS, SLOW, REORDERED), "glance.job.json"), job, false);
        PipelineResult result = AnalysisPipeline.run(PipelineInput.of(List.of(job)));
        analysed = result.report();
        StringWriter out = new StringWriter();
        new HtmlRenderer(TimelineIndex.of(result.inputs())).render(analysed, out);
        page = out.toString();
    }

    /** The text report with {@code --detail} as given ({@code null}: the default). */
    private static String report(String detail) throws IOException {
        StringWriter out = new StringWriter();
        new TextRenderer(false, null, ReportLayout.of(detail, null)).render(analysed, out);
        return out.toString();
    }

    private static String markdown(String detail) throws IOException {
        StringWriter out = new StringWriter();
        new MarkdownRenderer(false, ReportLayout.of(detail, null)).render(analysed, out);
        return out.toString();
    }

    @Test
    void theDefaultTextReportOfAThousandRanksIsAFewScreensWithTheErrorAndTheSlowRankFirst() throws IOException {
        String text = report(null);
        List<String> lines = text.lines().toList();
        assertTrue(lines.size() < 200, lines.size() + " lines:\n" + text);
        String first30 = String.join("\n", lines.subList(0, 30));
        assertTrue(first30.contains("job: 1024 ranks read of a world of 1024"), first30);
        assertTrue(first30.contains("ERROR TYPE in group 0 (default_pg)") && first30.contains("rank 3 issued ALL_REDUCE"),
                first30);
        assertTrue(first30.contains("STRAGGLER") && first30.contains("rank " + SLOW), first30);
        // The rank table: the error rank, then the straggler, before any healthy rank.
        assertTrue(Pattern.compile("(?m)^ +3 .*ERROR\n +700 .*straggler$").matcher(text).find(), text);
        assertTrue(text.contains("… 1008 more ranks"), text);
        // In detail: the straggler (the worst rank) and the error rank, nobody else.
        assertEquals(List.of("700", "3"), detailedRanks(text));
    }

    @Test
    void detailAllIsTheFullReportEveryRankEveryStepEveryStraggler() throws IOException {
        String full = report("all");
        List<String> detailed = detailedRanks(full);
        assertEquals(RANKS, detailed.size());
        assertEquals("0", detailed.get(0));
        assertEquals(Integer.toString(RANKS - 1), detailed.get(RANKS - 1));
        assertFalse(full.contains("more ranks ("), "every rank row, every straggler row");
        assertFalse(full.contains("more steps ("), "every step of every rank");
        // Each rank's block is what --detail <rank> prints for it: nothing is left out of the full report.
        String one = report("700");
        assertEquals(List.of("700"), detailedRanks(one));
        String block = one.substring(one.indexOf("\nrank 700 findings:"));
        assertTrue(full.contains(block.substring(0, block.indexOf("\nnote:") > 0 ? block.indexOf("\nnote:") : block.length())),
                "rank 700's block in the full report");
        assertEquals(STEPS, Pattern.compile("(?m)^ProfilerStep#\\d+ ").matcher(block).results().count());
    }

    @Test
    void detailNoneAndTheMarkdownReportOpenWithTheJob() throws IOException {
        String none = report("none");
        assertEquals(List.of(), detailedRanks(none));
        String md = markdown("none");
        assertTrue(md.indexOf("## Job") < md.indexOf("## What to change"), md);
        assertTrue(md.indexOf("## What to change") < md.indexOf("## Ranks, worst first"), md);
        assertTrue(md.contains("- **ERROR** TYPE in group 0 (default\\_pg)"), md);
        assertTrue(md.lines().count() < 200, md);
    }

    /**
     * The CLI on the thousand ranks (more than 64 inputs) spills their reports for the text report as
     * for JSON, says so in one line on stderr, and prints the report of every rank held in memory.
     */
    @Test
    void theCliSpillsTheRanksOfTheTextReportAndPrintsTheSameReport() throws IOException {
        CliRun run = CliRun.of("--no-timeline", job.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("overlap-analyze: a big job: the " + RANKS + " ranks' reports were kept in a temporary "
                + "directory, not in memory, until written"), run.errLines());
        assertEquals(report(null), run.out());
    }

    /**
     * With an HTML page too the CLI spills (the page reads a few numbers per rank and step from the pass
     * over the spill, and each rank back for its own section): the page is the one drawn with every
     * rank's model at hand, byte for byte, with the count limit binding (10,240 steps could be drawn),
     * and the text report beside it the same; stderr says so in one line.
     */
    @Test
    void theCliSpillsTheRanksOfTheHtmlPageAndWritesTheSamePage() throws IOException {
        Path html = dir.resolve("page.html");
        CliRun run = CliRun.of("--no-timeline", "--html", html.toString(), job.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("overlap-analyze: a big job: the " + RANKS + " ranks' reports were kept in a temporary "
                + "directory, not in memory, until written"), run.errLines());
        assertEquals(report(null), run.out());
        String written = Files.readString(html);
        assertTrue(written.contains(">300 of " + RANKS * STEPS + " step timelines drawn"), "the count limit binds");
        assertEquals(page, written);
    }

    @Test
    void theOptionsReachTheReportAndABadValueIsBadUsage() {
        Path sample = Path.of(System.getProperty("overlap.projectRoot", "..")).resolve("samples").resolve("job-order-mismatch");
        CliRun all = CliRun.of("--detail", "all", "--no-timeline", sample.toString());
        assertEquals(0, all.exitCode(), all.err());
        assertEquals(4, Pattern.compile("(?m)^rank \\d of 4  ").matcher(all.out()).results().count(), all.out());
        CliRun two = CliRun.of("--detail", "1,3", "--rank-rows", "2", "--no-timeline", sample.toString());
        assertEquals(0, two.exitCode(), two.err());
        assertTrue(two.out().contains("… 2 more ranks"), two.out());
        assertEquals(List.of("1", "3"), Pattern.compile("(?m)^rank (\\d) of 4  ").matcher(two.out()).results()
                .map(r -> r.group(1)).toList());
        CliRun bad = CliRun.of("--detail", "the-slow-one", sample.toString());
        assertEquals(2, bad.exitCode());
        assertEquals(1, bad.errLines().size(), bad.err());
        assertTrue(bad.err().contains("--detail") && bad.err().contains("the-slow-one"), bad.err());
        assertEquals("", bad.out());
        CliRun noRows = CliRun.of("--rank-rows", "0", sample.toString());
        assertEquals(2, noRows.exitCode());
        assertEquals(List.of("overlap-analyze: --rank-rows: rank rows must be at least 1, got 0"), noRows.errLines());
    }

    /** The ranks whose detail heading ("rank N of 1024  path") appears, in order. */
    private static List<String> detailedRanks(String text) {
        Matcher m = Pattern.compile("(?m)^rank (\\d+) of " + RANKS + "  ").matcher(text);
        return m.results().map(r -> r.group(1)).toList();
    }
}
