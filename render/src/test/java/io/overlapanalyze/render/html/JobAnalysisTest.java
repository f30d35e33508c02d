package io.overlapanalyze.render.html;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.MarkdownRenderer;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.render.TextRenderer;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.TerminalTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job path (issue 32: each rank's model dropped once it is analysed and digested, the cross-rank
 * analysis on digests, a big job's reports spilled) writes what the pipeline writes with every
 * model at hand, byte for byte: the JSON report spilled or not, the HTML page and the terminal
 * timelines from what was kept of each rank, and a page step no rank kept, read again.
 */
class JobAnalysisTest {
    @TempDir
    Path tmp;

    /** A job with a slow rank and a reordered collective: the cross-rank section has a mismatch to find. */
    private Path job(String name, int ranks, int steps) throws IOException {
        String json = "{\"name\": \"" + name + "\", \"ranks\": " + ranks + ", \"scenario\": \"seed-4ms\", \"steps\": "
                + steps + ", \"slowRank\": 1, \"delayUs\": 300,"
                + " \"bucketTypes\": [\"allreduce\", \"reducescatter\", \"allreduce\"],"
                + " \"perturbations\": [{\"kind\": \"reorder\", \"rank\": " + (ranks - 1)
                + ", \"step\": 2, \"bucket\": 1}]}";
        Path dir = Files.createDirectories(tmp.resolve(name));
        JobWriter.write(Job.parse(json, name + ".job.json"), dir, false);
        return dir;
    }

    private static String bytes(ReportRenderer renderer, AnalysisReport report) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        renderer.render(report, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static JobAnalysis jobPath(PipelineInput in, JobPictures pictures, boolean spill) {
        TraceFormats.Expanded expanded = AnalysisPipeline.expand(in, TraceFormats.Keep.NOTHING);
        return JobAnalysis.run(in, expanded, pictures, spill, null);
    }

    @Test
    void theJsonReportIsTheFullModelsBytesSpilledOrNot() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("json", 6, 4)));
        PipelineResult full = AnalysisPipeline.run(in);
        CrossRankReport cross = full.report().crossRank();
        assertNotNull(cross);
        assertFalse(cross.mismatches().isEmpty(), "rank 5's reordered collectives are a mismatch");
        String expected = bytes(new JsonRenderer(), full.report());
        try (JobAnalysis kept = jobPath(in, JobPictures.none(), false)) {
            assertFalse(kept.spills());
            assertEquals(expected, bytes(new JsonRenderer(), kept.result().report()));
        }
        Path dir;
        try (JobAnalysis spilled = jobPath(in, JobPictures.none(), true)) {
            assertTrue(spilled.spills());
            assertEquals(6, spilled.parts().size(), "every rank's report spilled");
            dir = spilled.spilled().directory();
            assertEquals(6, spilled.spilled().count());
            assertTrue(Files.isDirectory(dir));
            assertEquals(expected, bytes(spilled.jsonRenderer(), spilled.result().report()));
            StringWriter chars = new StringWriter();
            spilled.jsonRenderer().render(spilled.result().report(), chars);
            assertEquals(expected, chars.toString(), "to characters as to bytes");
        }
        assertFalse(Files.exists(dir), "closing deletes the spilled reports");
    }

    /**
     * A job above the CLI's spill threshold, spilled: the text report (with its terminal timelines)
     * and the markdown report, in the default layout (the worst rank and the error rank detailed, the
     * rank table capped) and in the full one (every rank detailed), are the full models' bytes. The
     * layouts read every rank's row, the job's findings (ranked from every rank's full report) and the
     * detailed ranks back from the spill, not the stand-ins the job holds.
     */
    @Test
    void theTextAndMarkdownReportsOfASpilledJobAreTheFullModels() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("human", JobAnalysis.SPILL_INPUTS + 1, 3)));
        PipelineResult full = AnalysisPipeline.run(in);
        assertFalse(full.report().findings().isEmpty(), "the slow rank is a finding");
        TimelineIndex fullIndex = TimelineIndex.of(full.inputs());
        try (JobAnalysis spilled = jobPath(in, new JobPictures(0, null), true)) {
            assertEquals(JobAnalysis.SPILL_INPUTS + 1, spilled.parts().size(), "every rank's report spilled");
            assertTrue(spilled.result().report().ranks().stream().allMatch(r -> r.totals() == null),
                    "the job holds stand-ins, without totals");
            for (ReportLayout layout : List.of(ReportLayout.byDefault(), ReportLayout.full())) {
                String text = bytes(new TextRenderer(false, new TerminalTimeline(fullIndex, 120, false), layout),
                        full.report());
                assertEquals(text, bytes(new TextRenderer(false, new TerminalTimeline(spilled.pictures(), 120, false),
                        layout, spilled.ranks()), spilled.report()), "text, " + layout);
                assertTrue(text.contains(" timeline: 0 to "), "the timelines are drawn");
                String markdown = bytes(new MarkdownRenderer(false, layout), full.report());
                assertEquals(markdown, bytes(new MarkdownRenderer(false, layout, spilled.ranks()), spilled.report()),
                        "markdown, " + layout);
            }
            assertEquals(full.report().findings(), spilled.report().findings());
        }
    }

    private static String page(HtmlRenderer renderer, PageJob job) throws IOException {
        StringWriter out = new StringWriter();
        renderer.render(job, out);
        return out.toString();
    }

    /**
     * The HTML page of a job above the spill threshold, spilled, is the full models' page byte for byte:
     * 65 ranks of 5 steps have 325 step timelines, so the count limit (300) binds, and a byte limit that
     * binds earlier too; in the default layout and the full one; with the text report made from the same
     * job before or after it, and the JSON report after it. The page reads every rank's summary from the pass over the spill and each
     * rank's full report back while its section is written, never the stand-ins the job holds.
     */
    @Test
    void theHtmlPageOfASpilledJobIsTheFullModels() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("page", JobAnalysis.SPILL_INPUTS + 1, 5)));
        PipelineResult full = AnalysisPipeline.run(in);
        TimelineIndex fullIndex = TimelineIndex.of(full.inputs());
        int inputs = JobAnalysis.SPILL_INPUTS + 1;
        for (boolean textFirst : new boolean[] {false, true}) {
            try (JobAnalysis spilled = jobPath(in, new JobPictures(inputs, null), true)) {
                assertTrue(spilled.spills());
                assertTrue(spilled.result().report().ranks().stream().allMatch(r -> r.totals() == null),
                        "the job holds stand-ins, without totals");
                String text = bytes(new TextRenderer(false, new TerminalTimeline(fullIndex, 120, false),
                        ReportLayout.byDefault()), full.report());
                if (textFirst) {
                    assertEquals(text, bytes(new TextRenderer(false, new TerminalTimeline(spilled.pictures(), 120,
                            false), ReportLayout.byDefault(), spilled.ranks()), spilled.report()), "text first");
                }
                for (ReportLayout layout : List.of(ReportLayout.byDefault(), ReportLayout.full())) {
                    StringWriter expected = new StringWriter();
                    new HtmlRenderer(fullIndex, layout).render(full.report(), expected);
                    assertTrue(expected.toString().contains(" of " + inputs * 5 + " step timelines drawn"),
                            "the count limit binds");
                    assertEquals(expected.toString(), page(new HtmlRenderer(spilled.pictures(), layout),
                            spilled.page()), "page, " + layout);
                }
                // A byte limit that binds before the count limit: fewer, the same ones.
                HtmlRenderer small = new HtmlRenderer(fullIndex, new CrossRankReportSection(), 300, 200_000);
                StringWriter expected = new StringWriter();
                small.render(full.report(), expected);
                String smallPage = page(new HtmlRenderer(spilled.pictures(), new CrossRankReportSection(), 300,
                        200_000), spilled.page());
                assertEquals(expected.toString(), smallPage, "under a byte limit");
                assertFalse(smallPage.contains(" 300 of "), "the byte limit binds first");
                if (!textFirst) {
                    assertEquals(text, bytes(new TextRenderer(false, new TerminalTimeline(spilled.pictures(), 120,
                            false), ReportLayout.byDefault(), spilled.ranks()), spilled.report()), "text after");
                    assertEquals(bytes(new JsonRenderer(), full.report()),
                            bytes(spilled.jsonRenderer(), spilled.result().report()), "JSON after");
                }
            }
        }
    }

    /**
     * A spilled job whose ranks kept only their worst and median steps' unions (as a job of more ranks
     * than the page draws timelines keeps them): the other steps the page draws are read again from
     * the traces, and the page is the full models'.
     */
    @Test
    void aSpilledPageReadsAgainTheStepsNoRankKept() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("page-again", JobAnalysis.SPILL_INPUTS + 1, 4)));
        PipelineResult full = AnalysisPipeline.run(in);
        StringWriter expected = new StringWriter();
        new HtmlRenderer(TimelineIndex.of(full.inputs())).render(full.report(), expected);
        // As many inputs as the page draws timelines: each rank keeps its worst and median steps only.
        try (JobAnalysis spilled = jobPath(in, new JobPictures(TimelinePlan.MAX_TIMELINES, Boolean.FALSE), true)) {
            RankReport first = spilled.result().report().ranks().get(0);
            assertTrue(spilled.ranks().summary(first).steps() > 2, "a rank has more steps than it kept");
            assertEquals(expected.toString(), page(new HtmlRenderer(spilled.pictures()), spilled.page()));
        }
    }

    /** A spilled rank that cannot be read back fails the report; closing still deletes the spill. */
    @Test
    void aReportThatFailsMidwayLeavesNoSpillBehind() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("fails", 3, 2)));
        Path dir;
        try (JobAnalysis spilled = jobPath(in, JobPictures.none(), true)) {
            dir = spilled.spilled().directory();
            RankReport second = spilled.result().report().ranks().get(1);
            Files.delete(spilled.parts().get(second));
            java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.io.UncheckedIOException.class,
                    () -> bytes(new TextRenderer(false, null, ReportLayout.full(), spilled.ranks()), spilled.report()));
            assertTrue(e.getMessage().contains("cannot read the rank's report back"), e.getMessage());
            assertTrue(Files.isDirectory(dir), "the other ranks' reports are still there until closed");
        }
        assertFalse(Files.exists(dir), "closing deletes the spilled reports");
    }

    /** A page whose rank cannot be read back fails; closing still deletes the spill. */
    @Test
    void aPageThatFailsMidwayLeavesNoSpillBehind() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("page-fails", 3, 2)));
        Path dir;
        try (JobAnalysis spilled = jobPath(in, new JobPictures(3, Boolean.FALSE), true)) {
            dir = spilled.spilled().directory();
            PageJob page = spilled.page();
            RankReport second = spilled.result().report().ranks().get(1);
            Files.delete(spilled.parts().get(second));
            java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.io.UncheckedIOException.class, () -> page(new HtmlRenderer(spilled.pictures()), page));
            assertTrue(e.getMessage().contains("cannot read the rank's report back"), e.getMessage());
        }
        assertFalse(Files.exists(dir), "closing deletes the spilled reports");
    }

    @Test
    void thePageAndTheTerminalTimelinesAreTheFullModels() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("pictures", 4, 5)));
        PipelineResult full = AnalysisPipeline.run(in);
        StringWriter page = new StringWriter();
        new HtmlRenderer(TimelineIndex.of(full.inputs())).render(full.report(), page);
        String text = bytes(new TextRenderer(false, new TerminalTimeline(TimelineIndex.of(full.inputs()), 120, false)),
                full.report());
        try (JobAnalysis job = jobPath(in, new JobPictures(4, null), false)) {
            StringWriter fromKept = new StringWriter();
            new HtmlRenderer(job.pictures()).render(job.result().report(), fromKept);
            assertEquals(page.toString(), fromKept.toString());
            assertEquals(text, bytes(new TextRenderer(false, new TerminalTimeline(job.pictures(), 120, false)),
                    job.result().report()));
            assertTrue(text.contains(" timeline: 0 to "), "the timelines are drawn");
        }
    }

    @Test
    void aStepThePageDrawsThatNoRankKeptIsReadAgain() throws IOException {
        PipelineInput in = PipelineInput.of(List.of(job("again", 3, 4)));
        PipelineResult full = AnalysisPipeline.run(in);
        StringWriter page = new StringWriter();
        new HtmlRenderer(TimelineIndex.of(full.inputs())).render(full.report(), page);
        // Each rank keeps its steps' sizes and no unions: every step the page draws is read again.
        AnalysisPipeline.Job<PrecomputedTimelines> job = AnalysisPipeline.analyseJob(
                AnalysisPipeline.expand(in, TraceFormats.Keep.NOTHING), in, null,
                r -> new AnalysisPipeline.Reduced<>(r.report(), RemoteTimelines.of(r.trace(), r.report(), Set.of())));
        var ranks = JobPictures.reportsOf(job.result().inputs());
        TimelineIndex index = JobPictures.index(ranks, job.kept());
        assertFalse(RemoteTimelines.missing(job.result().report(), index).isEmpty());
        JobPictures.completeForPage(job.result().report(), index, ranks, job.kept(), JobPictures.readingAgain(
                job.result().inputs(), source -> AnalysisPipeline.readAgain(in, Path.of(source))));
        assertTrue(RemoteTimelines.missing(job.result().report(), index).isEmpty());
        StringWriter again = new StringWriter();
        new HtmlRenderer(index).render(job.result().report(), again);
        assertEquals(page.toString(), again.toString());
    }
}
