package io.overlapanalyze.spark;

import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.MarkdownRenderer;
import io.overlapanalyze.render.html.HtmlRenderer;
import io.overlapanalyze.render.html.RemoteTimelines;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.RankReport;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --html}: the page the CLI writes for the same inputs, byte for byte, though the traces
 * were read by the tasks and the page is drawn on the driver.
 */
class SparkHtmlTest {
    @TempDir
    Path tmp;

    /** The bytes {@code overlap-analyze PATH --html FILE} writes: the CLI's analyze command, in process. */
    static byte[] cliHtml(Path path) throws IOException {
        PipelineResult result = AnalysisPipeline.run(PipelineInput.of(List.of(path)));
        StringWriter html = new StringWriter();
        new HtmlRenderer(TimelineIndex.of(result.inputs())).render(result.report(), html);
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theSamplesPagesAreTheClis() throws IOException {
        for (Path sample : List.of(SparkRuns.samples().resolve("job-order-mismatch"),
                SparkRuns.samples().resolve("seed-1ms.pt.trace.json"))) {
            Path html = tmp.resolve(sample.getFileName() + ".html");
            Path json = tmp.resolve(sample.getFileName() + ".json");
            SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", json.toString(), "--html", html.toString(),
                    sample.toString());
            assertEquals(0, run.code(), run.err());
            byte[] page = Files.readAllBytes(html);
            assertArrayEquals(cliHtml(sample), page, sample.toString());
            assertTrue(new String(page, StandardCharsets.UTF_8).contains("<svg"), "the page draws timelines");
            assertEquals(SparkRuns.cliJson(sample), Files.readString(json, StandardCharsets.UTF_8), "and the JSON is the CLI's");
        }
    }

    @Test
    void theSixteenRankPageIsTheClis() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job16"), 16, 5, "\"slowRank\": 9, \"delayUs\": 400");
        Path html = tmp.resolve("job16.html");
        Path md = tmp.resolve("job16.md");
        SparkRuns.Run run = SparkRuns.spark("-f", "markdown", "-o", md.toString(), "--html", html.toString(),
                dir.toString());
        assertEquals(0, run.code(), run.err());
        assertArrayEquals(cliHtml(dir), Files.readAllBytes(html));
        StringWriter markdown = new StringWriter();
        new MarkdownRenderer(false).render(AnalysisPipeline.run(PipelineInput.of(List.of(dir))).report(), markdown);
        assertEquals(markdown.toString(), Files.readString(md, StandardCharsets.UTF_8));
    }

    @Test
    void stepsTheTasksDidNotSendAreReadAgain() throws IOException {
        // Told the job has 100,000 ranks, each task sends only its worst and median steps; the
        // page of 3 ranks × 4 steps draws all 12, so the driver asks for the other 6 in a second read.
        Path dir = SparkRuns.job(tmp.resolve("job3"), 3, 4, "\"slowRank\": 1, \"delayUs\": 200");
        PipelineResult cli = AnalysisPipeline.run(PipelineInput.of(List.of(dir)));
        for (RankReport r : cli.report().ranks()) {
            assertEquals(2, RemoteTimelines.stepsThatMayBeDrawn(r, 100_000).size(), "rank " + r.rank());
        }
        JobSettings settings = JobSettings.of(PipelineInput.of(List.of(dir))).withHtml(100_000);
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("html-second-read-test");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            InputLocations.Expanded inputs = InputLocations.expand(List.of(dir.toString()),
                    PipelineInput.of(List.of(dir)), sc.hadoopConfiguration());
            SparkJob.Result result = SparkJob.run(sc, inputs, settings);
            assertTrue(RemoteTimelines.missing(result.page(), result.timelines()).isEmpty());
            StringWriter page = new StringWriter();
            new HtmlRenderer(result.timelines()).render(result.page(), page);
            assertArrayEquals(cliHtml(dir), page.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void reportsInPartFilesAreReadBackForThePage() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job16parts"), 16, 4, "\"slowRank\": 3, \"delayUs\": 250");
        Path parts = tmp.resolve("parts");
        PipelineInput in = PipelineInput.of(List.of(dir));
        JobSettings settings = JobSettings.of(in)
                .withReportParts(parts.toUri().toString(), 0).withHtml(16);
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("html-parts-test");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("WARN");
            InputLocations.Expanded inputs = InputLocations.expand(List.of(dir.toString()), in, sc.hadoopConfiguration());
            SparkJob.Result result = SparkJob.run(sc, inputs, settings);
            assertEquals(16, result.parts().size(), "every report went to a part file");
            for (RankReport r : result.pipeline().report().ranks()) {
                assertTrue(result.parts().containsKey(r), "the pipeline's report holds the digests' stand-ins");
            }
            assertNotEquals(result.pipeline().report().ranks(), result.page().ranks(),
                    "the stand-ins are not the full reports the page needs");
            StringWriter page = new StringWriter();
            new HtmlRenderer(result.timelines()).render(result.page(), page);
            assertArrayEquals(cliHtml(dir), page.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void thePageIsNeverWrittenOntoAnInputNorOntoAnotherOutput() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job"), 2, 2, "");
        Path input = dir.resolve("rank-0.pt.trace.json");
        byte[] before = Files.readAllBytes(input);
        SparkRuns.Run onInput = SparkRuns.spark("--html", input.toString(), dir.toString());
        assertEquals(2, onInput.code(), onInput.err());
        assertEquals(1, onInput.err().strip().lines().count(), onInput.err());
        assertArrayEquals(before, Files.readAllBytes(input));

        Path same = tmp.resolve("same.out");
        SparkRuns.Run both = SparkRuns.spark("-o", same.toString(), "--html", same.toString(), dir.toString());
        assertEquals(2, both.code(), both.err());
        assertTrue(both.err().contains("--html"), both.err());
        assertFalse(Files.exists(same));
    }
}
