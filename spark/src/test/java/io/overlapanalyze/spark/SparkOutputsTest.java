package io.overlapanalyze.spark;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.StepSelection;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.render.MarkdownRenderer;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.reportfile.SummaryFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every output the job writes is the CLI's: markdown, the summary baseline for gate, JSON on standard output, URIs as inputs. */
class SparkOutputsTest {
    @TempDir
    Path tmp;

    @Test
    void markdownAndTheSummaryBaselineOfASixteenRankJob() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job16"), 16, 3, "\"slowRank\": 9, \"delayUs\": 400");
        AnalysisReport cli = AnalysisPipeline.run(PipelineInput.of(List.of(dir))).report();
        StringWriter markdown = new StringWriter();
        new MarkdownRenderer(false).render(cli, markdown);
        StringWriter summary = new StringWriter();
        SummaryFile.write(cli, summary);

        Path md = tmp.resolve("report.md");
        Path baseline = tmp.resolve("baseline.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "markdown", "-o", md.toString(), "--summary", baseline.toString(),
                dir.toString());
        assertEquals(0, run.code(), run.err());
        assertEquals(markdown.toString(), Files.readString(md, StandardCharsets.UTF_8));
        assertEquals(summary.toString(), Files.readString(baseline, StandardCharsets.UTF_8));
        assertTrue(markdown.toString().contains("9"), "the slow rank is in the report");
    }

    /**
     * A hung job's Flight Recorder dumps (generated: rank 5 never enqueued the last all_reduce of
     * the data-parallel group) walked and read by the tasks: the same text report and the same
     * {@code hang} section as the CLI's.
     */
    @Test
    void aHungJobsFlightRecorderDumpsAsInTheCli() throws IOException {
        Path dir = tmp.resolve("dumps");
        new io.overlapanalyze.synth.FlightRecorderJob(8, 10, io.overlapanalyze.synth.FlightRecorderJob.Fault.MISSING_RANK,
                5).write(dir, false);
        AnalysisReport cli = AnalysisPipeline.run(PipelineInput.of(List.of(dir))).report();
        StringWriter text = new StringWriter();
        new io.overlapanalyze.render.TextRenderer().render(cli, text);
        assertTrue(text.toString().contains("hang: group 5 DATA_PARALLEL_GROUP nccl:all_reduce #10: rank 5 never "
                + "enqueued it"), text.toString());
        Path out = tmp.resolve("hang.txt");
        SparkRuns.Run run = SparkRuns.spark("-o", out.toString(), dir.toString());
        assertEquals(0, run.code(), run.err());
        assertEquals(text.toString(), Files.readString(out, StandardCharsets.UTF_8));
        Path json = tmp.resolve("hang.json");
        SparkRuns.Run asJson = SparkRuns.spark("-f", "json", "-o", json.toString(), dir.toString());
        assertEquals(0, asJson.code(), asJson.err());
        java.io.ByteArrayOutputStream cliJson = new java.io.ByteArrayOutputStream();
        new JsonRenderer().render(cli, cliJson);
        assertEquals(JsonRenderer.mapper().readTree(cliJson.toByteArray()).get("hang"),
                JsonRenderer.mapper().readTree(json.toFile()).get("hang"));
    }

    @Test
    void selectedStepsAndPartialStepsAsInTheCli() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("steps"), 4, 4, "\"slowRank\": 1, \"delayUs\": 100");
        PipelineInput in = PipelineInput.of(List.of(dir)).withSteps(StepSelection.parse("2-3"))
                .withOptions(AnalysisOptions.defaults().withIncludePartial(true));
        java.io.ByteArrayOutputStream cli = new java.io.ByteArrayOutputStream();
        new JsonRenderer().render(AnalysisPipeline.run(in).report(), cli);
        Path out = tmp.resolve("steps.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), "--steps", "2-3", "--include-partial",
                dir.toString());
        assertEquals(0, run.code(), run.err());
        String spark = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(cli.toString(StandardCharsets.UTF_8), spark);
        List<String> steps = new java.util.ArrayList<>();
        JsonRenderer.mapper().readTree(spark).get("ranks").forEach(r -> r.get("steps").forEach(st -> steps.add(st.get("name").asText())));
        assertEquals(List.of("ProfilerStep#2", "ProfilerStep#3"), steps.stream().distinct().sorted().toList(), "only the selected steps");

        SparkRuns.Run none = SparkRuns.spark("-f", "json", "--steps", "99", dir.toString());
        assertEquals(2, none.code(), none.err());
        assertTrue(none.err().contains("99"), none.err());
    }

    @Test
    void theUsersKernelPatternsReachTheTasks() throws IOException {
        Path dir = SparkRuns.samples().resolve("job-healthy-4rank");
        String cli = SparkRuns.cliJson(io.overlapanalyze.formats.input.ReadOptions.DEFAULT.withKernelRules(
                KernelRules.withUserPatterns(List.of(new KernelRules.UserPattern(KernelRules.Target.COMM,
                        java.util.regex.Pattern.compile("cutlass"))))), dir);
        assertTrue(!cli.equals(SparkRuns.cliJson(dir)), "the pattern changes the report");
        Path out = tmp.resolve("patterns.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), "--comm-kernel", "cutlass", dir.toString());
        assertEquals(0, run.code(), run.err());
        assertEquals(cli, Files.readString(out, StandardCharsets.UTF_8));
    }

    /**
     * The kernel patterns reach the Ascend reader on the executors too (issue 30): with
     * {@code --fused-kernel .} every compute task of the advisor timeline (11 of them; its 12th task
     * is a copy) is fused, so the step's compute time becomes fused time and no compute is left, as
     * in the CLI read with the same patterns.
     */
    @Test
    void theUsersKernelPatternsReachTheAscendReaderInTheTasks() throws IOException {
        String root = System.getProperty("overlap.projectRoot");
        Path timeline = (root != null ? Path.of(root) : Path.of("..")).resolve(
                "trace-formats/src/test/resources/ascend/msprof-analyze-advisor-2024/trace_view.json");
        Path out = tmp.resolve("ascend-fused.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), "--fused-kernel", ".", timeline.toString());
        assertEquals(0, run.code(), run.err());
        com.fasterxml.jackson.databind.JsonNode fused = io.overlapanalyze.render.JsonRenderer.mapper()
                .readTree(out.toFile()).get("ranks").get(0).get("totals");
        com.fasterxml.jackson.databind.JsonNode plain = io.overlapanalyze.render.JsonRenderer.mapper()
                .readTree(SparkRuns.cliJson(timeline)).get("ranks").get(0).get("totals");
        long compute = plain.get("computeBusyNs").asLong();
        assertTrue(compute > 0, "the timeline has compute tasks: " + plain);
        assertEquals(0, plain.get("breakdown").get("fusedNs").asLong());
        assertEquals(0, fused.get("computeBusyNs").asLong(), fused.toString());
        assertEquals(compute, fused.get("breakdown").get("fusedNs").asLong(), fused.toString());
        KernelRules everyTaskFused = KernelRules.withUserPatterns(List.of(
                new KernelRules.UserPattern(KernelRules.Target.FUSED, java.util.regex.Pattern.compile("."))));
        assertEquals(SparkRuns.cliJson(io.overlapanalyze.formats.input.ReadOptions.DEFAULT.withKernelRules(everyTaskFused),
                timeline), Files.readString(out, StandardCharsets.UTF_8));
    }

    @Test
    void jsonOnStandardOutput() throws IOException {
        Path dir = SparkRuns.samples().resolve("job-healthy-4rank");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", dir.toString());
        assertEquals(0, run.code(), run.err());
        assertEquals(SparkRuns.cliJson(dir), run.out());
    }

    @Test
    void fileUrisAreCopiedByTheTasksAndNamedAsGiven() throws IOException {
        Path dir = SparkRuns.samples().resolve("job-order-mismatch").toAbsolutePath().normalize();
        String uri = dir.toUri().toString().replaceAll("/$", "");
        Path out = tmp.resolve("uri.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), uri);
        assertEquals(0, run.code(), run.err());
        String spark = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(spark.contains("\"" + "file:" + dir + "/rank-0.pt.trace.json\""), "sources are the URIs: " + spark.substring(0, 400));
        assertTrue(!spark.contains("overlap-analyze-task-"), "no task copy is named");
        // Only the names differ from the CLI on the same files.
        assertEquals(SparkRuns.cliJson(dir), spark.replace("file:" + dir, dir.toString()));
    }

    @Test
    void ascendCapturesUnderAUriAreOneInputEach() throws IOException {
        String shared = System.getProperty("overlap.sharedTraces");
        Path job = shared == null ? null : Path.of(shared, "ascend", "torch_npu_text_level1").toAbsolutePath().normalize();
        Assumptions.assumeTrue(job != null && Files.isDirectory(job), "skipped: ../shared/traces (real traces) is not here");
        String uri = job.toUri().toString().replaceAll("/$", "");
        Path out = tmp.resolve("ascend.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), uri);
        assertEquals(0, run.code(), run.err());
        String spark = Files.readString(out, StandardCharsets.UTF_8);
        // Two capture directories, each copied whole by its task and read as one rank, as the CLI reads them.
        assertEquals(SparkRuns.cliJson(job), spark.replace("file:" + job, job.toString()));
        assertEquals(2, io.overlapanalyze.render.JsonRenderer.mapper().readTree(spark).get("ranks").size());
    }

    @Test
    void theReportIsNeverWrittenOntoAnInput() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job"), 2, 2, "");
        Path input = dir.resolve("rank-0.pt.trace.json");
        byte[] before = Files.readAllBytes(input);
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", input.toString(), dir.toString());
        assertEquals(2, run.code(), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertEquals(java.util.Arrays.toString(before), java.util.Arrays.toString(Files.readAllBytes(input)));
    }
}
