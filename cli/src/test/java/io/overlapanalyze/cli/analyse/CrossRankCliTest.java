package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Durations;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end through the CLI: acceptance 2 (the real trace_filter pair), 4 (bad inputs) and the JSON contract. */
class CrossRankCliTest {
    private static final String R0 = "hta_trace_filter_sampled_rank0of128.json.gz";
    private static final String R1 = "hta_trace_filter_sampled_rank1of128.json.gz";

    @TempDir
    Path dir;

    private static JsonNode json(CliRun run) throws IOException {
        assertEquals(0, run.exitCode(), run.err());
        return JsonRenderer.mapper().readTree(run.out());
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(field).asText()));
        return out;
    }

    @Test
    void traceFilterPairIsAnInferredOrderDifferenceNamingTheThreads() throws IOException {
        Path r0 = SharedTraces.kineto(R0);
        Path r1 = SharedTraces.kineto(R1);
        JsonNode x = json(CliRun.of("-f", "json", r0.toString(), r1.toString())).get("crossRank");
        assertEquals("[0,1]", x.get("ranks").toString());
        assertEquals(128, x.get("worldSize").asInt(), "distributedInfo.world_size of both files");
        JsonNode mismatches = x.get("mismatches");
        assertEquals(1, mismatches.size(), mismatches.toString());
        JsonNode m = mismatches.get(0);
        // PROVENANCE.md: 5 host collectives per step, same order in step 551; in step 552 rank 0 issues
        // alltoall, alltoall, allreduce... and rank 1 alltoall, allreduce, alltoall...: first difference at 5 + 1.
        assertEquals("implicit", m.get("group").asText());
        assertEquals(6, m.get("index").asLong());
        assertEquals("TYPE", m.get("kind").asText());
        assertEquals("WARNING", m.get("severity").asText(), "no group metadata: inferred, not an error");
        assertEquals("ProfilerStep#552", m.get("step").asText());
        JsonNode ranks = m.get("ranks");
        assertEquals("ALL_TO_ALL", ranks.get(0).get("type").asText());
        assertEquals("ALL_REDUCE", ranks.get(1).get("type").asText());
        // "the second alltoall_base_ runs on the second thread" on rank 1; rank 0 issues it from the main thread.
        assertTrue(ranks.get(0).get("thread").asText().startsWith("main thread"), ranks.toString());
        assertTrue(ranks.get(1).get("thread").asText().startsWith("2nd thread"), ranks.toString());
        assertTrue(m.get("message").asText().contains("different host threads"), m.toString());
        // Everything else is analysed: every collective matched by type for timing, clocks, stragglers, tails.
        assertEquals("TYPE_ORDER", x.get("groups").get(0).get("matchedBy").asText());
        assertEquals(10, x.get("collectives").size(), "5 collectives per step, 2 steps, all matched");
        assertEquals(2, x.get("clockOffsetsNs").size());
        assertEquals(0, x.get("stragglers").size(), "clocks too rough for arrivals: nobody is called a straggler");
        assertEquals(2, x.get("worstTails").size());
        assertEquals("[0,1]", texts(json(CliRun.of("-f", "json", r0.toString(), r1.toString())).get("ranks"), "rank")
                .toString().replace(" ", ""));
    }

    @Test
    void traceFilterPairTextReportShowsTheWarningNotAnError() {
        CliRun run = CliRun.of(SharedTraces.kineto(R0).toString(), SharedTraces.kineto(R1).toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("WARNING TYPE: TYPE mismatch at group implicit index 6 (ProfilerStep#552)"),
                run.out());
        assertFalse(run.out().contains("ERROR "), run.out());
    }

    /**
     * Issue 26 point 3: the pair's matched collectives still end up to 2 ms apart after alignment (the
     * report says the clocks are rough), and the text once said "it waited 164.021 ms of 47.652 ms for
     * rank 1". With rough clocks no per-collective wait, straggler or late rank is claimed; the report
     * says why; and no wait anywhere exceeds its collective.
     */
    @Test
    void traceFilterPairMakesNoWaitClaimOnRoughClocks() throws IOException {
        Path r0 = SharedTraces.kineto(R0);
        Path r1 = SharedTraces.kineto(R1);
        CliRun text = CliRun.of("--no-timeline", r0.toString(), r1.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertFalse(text.out().contains("it waited"), text.out());
        assertFalse(text.out().contains("waiting for rank"), text.out());
        assertTrue(text.out().contains("the clocks do not allow per-collective waits, stragglers or late-rank claims"),
                text.out());

        JsonNode report = json(CliRun.of("-f", "json", r0.toString(), r1.toString()));
        JsonNode x = report.get("crossRank");
        assertTrue(x.get("clock").get("maxResidualNs").asLong() > 100_000, "rough: " + x.get("clock"));
        assertEquals(0, x.get("peerBoundTails").size(), x.get("peerBoundTails").toString());
        assertEquals(0, x.get("stragglers").size());
        assertTrue(x.get("skew").get("totalWaitNs").isNull(), x.get("skew").toString());
        assertTrue(x.get("skew").get("implausibleWaits").isNull(), "no waits made, none counted");
        for (JsonNode c : x.get("collectives")) {
            assertTrue(c.get("waitsNs").isNull(), c.toString());
            assertTrue(c.get("lastRank").isNull(), c.toString());
        }
        for (JsonNode rank : report.get("ranks")) {
            for (JsonNode step : rank.get("steps")) {
                assertFalse("crossRank".equals(step.get("commSplit").get("source").asText()), step.get("name").asText());
            }
        }
    }

    /**
     * Issue 26 point 3, the generated job: 8 ranks of seed-1ms, rank 5 0.8 ms late every step, rank 3
     * never issues bucket 1 of step 3. No rank is told it waited for rank 3 (its sequence shifted; it
     * is not slow); rank 5 is the straggler and every other rank's advice names it, with the 0.8 ms of
     * its 1.8 ms last all-reduce it spent waiting (steps 1 and 2: pairing stops at step 3).
     */
    @Test
    void aSkippedCollectiveNeverBlamesTheRankThatSkippedIt() throws IOException {
        JobWriter.write(Job.healthy("skip", 8, BuiltinScenarios.get("seed-1ms").withSteps(4))
                .withSlowRank(5, 800_000)
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 3, 3, 1, null)), dir, false);
        CliRun text = CliRun.of("--no-timeline", "--detail", "all", dir.toString());
        assertEquals(0, text.exitCode(), text.err());
        String out = text.out();
        assertFalse(out.contains("for rank 3"), out);
        assertFalse(out.contains("waiting for rank 3"), out);
        assertTrue(out.contains("ERROR MISSING: rank 3 stops after 11 of 12"), out);
        assertTrue(out.contains("pairing stops at index 6"), out);
        for (int r = 0; r < 8; r++) {
            String rank = rankBlock(out, r, 8);
            if (r == 5) {
                assertFalse(rank.contains("waited for rank") || rank.contains("it waited"), rank);
                continue;
            }
            assertTrue(rank.contains("ProfilerStep#1 tail chain: ALL_REDUCE 26.2 MB [+6.000, +7.800] DATA; it waited "
                    + "0.800 ms of 1.800 ms for rank 5"), rank);
            assertTrue(rank.contains("but the last reduction waited for rank 5 in 2 of 4 steps (median 0.800 ms of "
                    + "1.800 ms)"), rank);
        }
        JsonNode x = json(CliRun.of("-f", "json", dir.toString())).get("crossRank");
        assertEquals(5, x.get("stragglers").get(0).get("rank").asInt());
        assertEquals(6, x.get("stragglers").get(0).get("timesArrivedLast").asInt());
        assertEquals(6, x.get("groups").get(0).get("leftOutFrom").asLong());
    }

    @Test
    void anUnreadableRankFileIsNamedAndTheOthersAreAnalysed() throws IOException {
        Path job = dir.resolve("job");
        JobWriter.write(Job.healthy("j", 4, BuiltinScenarios.get("seed-1ms").withSteps(2)), job, false);
        Path bad = job.resolve("rank-2.pt.trace.json");
        Files.writeString(bad, "{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
        Path alsoBad = job.resolve("rank-3.pt.trace.json");
        Files.writeString(alsoBad, "not json at all");
        CliRun run = CliRun.of("-f", "json", job.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.err().contains(bad.toString()), run.err());
        assertTrue(run.err().contains(alsoBad.toString()), run.err());
        JsonNode report = JsonRenderer.mapper().readTree(run.out());
        JsonNode x = report.get("crossRank");
        assertEquals(List.of(bad.toString(), alsoBad.toString()), texts(x.get("inputProblems"), "file"));
        assertEquals(List.of("UNREADABLE", "UNREADABLE"), texts(x.get("inputProblems"), "kind"));
        assertEquals("[0,1]", x.get("ranks").toString());
        assertEquals("[2,3]", x.get("missingRanks").toString());
        assertEquals(2, report.get("ranks").size());
        assertEquals(0, x.get("mismatches").size(), "the readable ranks are consistent");
    }

    @Test
    void duplicateRanksAndAnotherJobAreLeftOutAndNamed() throws IOException {
        Path job = dir.resolve("job");
        JobWriter.write(Job.healthy("j", 4, BuiltinScenarios.get("seed-1ms")), job, false);
        Path copy = job.resolve("zz-rank-1.pt.trace.json"); // sorts after rank-1: the first one is kept
        Files.copy(job.resolve("rank-1.pt.trace.json"), copy);
        Path other = dir.resolve("other");
        JobWriter.write(Job.healthy("o", 2, BuiltinScenarios.get("seed-1ms")), other, false);
        Path foreign = other.resolve("rank-0.pt.trace.json");
        JsonNode report = json(CliRun.of("-f", "json", job.toString(), foreign.toString()));
        JsonNode x = report.get("crossRank");
        assertEquals("[0,1,2,3]", x.get("ranks").toString());
        List<String> kinds = texts(x.get("inputProblems"), "kind");
        List<String> files = texts(x.get("inputProblems"), "file");
        assertTrue(kinds.contains("DUPLICATE_RANK") && files.contains(copy.toString()), x.get("inputProblems").toString());
        assertTrue(kinds.contains("OTHER_JOB") && files.contains(foreign.toString()), x.get("inputProblems").toString());
        assertEquals(6, report.get("ranks").size(), "every readable file keeps its own rank section");
    }

    @Test
    void jsonContractNames() throws IOException {
        Path job = dir.resolve("job");
        JobWriter.write(Job.healthy("j", 2, BuiltinScenarios.get("seed-1ms").withSteps(2))
                .withSlowRank(1, 100_000)
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 0, 2, 3, null)), job, false);
        JsonNode x = json(CliRun.of("-f", "json", job.toString())).get("crossRank");
        JsonNode m = x.get("mismatches").get(0);
        for (String f : List.of("group", "index", "kind", "severity", "ranks")) {
            assertTrue(m.has(f), f + " in " + m);
        }
        assertEquals("MISSING", m.get("kind").asText());
        assertEquals(5, m.get("index").asLong(), "bucket 3 of step 2 = position 5");
        assertTrue(x.get("clockOffsetsNs").has("0") && x.get("clockOffsetsNs").has("1"));
        JsonNode s = x.get("stragglers").get(0);
        assertEquals(1, s.get("rank").asInt(), "the slow rank is the most waited-for");
        assertTrue(s.has("totalWaitNs") && s.has("timesArrivedLast"), s.toString());
    }

    @Test
    void aSingleTraceHasNoCrossRankSection() throws IOException {
        Path job = dir.resolve("job");
        List<Path> files = JobWriter.write(Job.healthy("j", 2, BuiltinScenarios.get("seed-1ms")), job, false);
        JsonNode report = json(CliRun.of("-f", "json", files.get(0).toString()));
        assertTrue(report.get("crossRank").isNull());
    }

    @Test
    void ranksFromFileNamesGlobsAndARegex() throws IOException {
        Path job = dir.resolve("job");
        List<Path> files = JobWriter.write(Job.healthy("j", 3, BuiltinScenarios.get("seed-1ms")), job, false);
        Path named = dir.resolve("named");
        Files.createDirectories(named);
        String[] names = {"trainer_rank0_host.json", "worker1.json", "host_2.pt.trace.json"};
        for (int r = 0; r < 3; r++) {
            // Without distributedInfo.rank the trace does not say its rank; the file name must.
            String text = Files.readString(files.get(r)).replaceFirst("\"rank\" : " + r + ",", "");
            Files.writeString(named.resolve(names[r]), text);
        }
        JsonNode report = json(CliRun.of("-f", "json", named.resolve("trainer_rank0_host.json").toString(),
                named.resolve("host_2.pt.trace.json").toString()));
        assertEquals("[0,2]", report.get("crossRank").get("ranks").toString());
        assertEquals("FILE_NAME", report.get("ranks").get(0).get("rankSource").asText());

        report = json(CliRun.of("-f", "json", "--rank-regex", "worker(\\d+)", named.resolve("worker1.json").toString(),
                named.resolve("trainer_rank0_host.json").toString()));
        assertEquals("USER", report.get("ranks").get(1).get("rankSource").asText());
        assertEquals(1, report.get("ranks").get(1).get("rank").asInt());

        report = json(CliRun.of("-f", "json", job.resolve("rank-*.pt.trace.json").toString()));
        assertEquals("[0,1,2]", report.get("crossRank").get("ranks").toString());
        report = json(CliRun.of("-f", "json", "--include", "rank-[01].pt.trace.json", job.toString()));
        assertEquals("[0,1]", report.get("crossRank").get("ranks").toString());
    }

    @Test
    void markdownHasTheCrossRankSection() throws IOException {
        Path job = dir.resolve("job");
        JobWriter.write(Job.healthy("j", 2, BuiltinScenarios.get("seed-1ms")), job, false);
        CliRun run = CliRun.of("-f", "markdown", job.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("## Across ranks"), run.out());
        assertTrue(run.out().contains("### Stragglers"), run.out());
    }

    private static Path samples() {
        String root = System.getProperty("overlap.projectRoot");
        return root != null ? Path.of(root, "samples") : Path.of("..", "samples");
    }

    @Test
    void shippedJobSamplesSayWhatTheirJobFilesBuilt() throws IOException {
        // job-healthy-4rank.job.json: offsets 0, +37, -120, +83 us (zero mean), nothing wrong.
        JsonNode healthy = json(CliRun.of("-f", "json", samples().resolve("job-healthy-4rank").toString()))
                .get("crossRank");
        assertEquals(0, healthy.get("mismatches").size());
        long[] offsets = {0, 37_000, -120_000, 83_000};
        for (int r = 0; r < 4; r++) {
            assertEquals(offsets[r], healthy.get("clockOffsetsNs").get(Integer.toString(r)).asLong(), 1000);
        }
        // job-order-mismatch.job.json: rank 2 swaps buckets 2 and 3 of step 2 (3 buckets per step): index 3 + 1.
        JsonNode m = json(CliRun.of("-f", "json", samples().resolve("job-order-mismatch").toString()))
                .get("crossRank").get("mismatches").get(0);
        assertEquals("TYPE", m.get("kind").asText());
        assertEquals("ERROR", m.get("severity").asText());
        assertEquals(4, m.get("index").asLong());
        assertEquals("[2]", m.get("culprits").toString());
    }

    @Test
    void synthWritesAJob() throws IOException {
        Path out = dir.resolve("synth-job");
        CliRun run = CliRun.of("synth", "seed-1ms", "--ranks", "3", "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        for (int r = 0; r < 3; r++) {
            assertTrue(Files.isRegularFile(out.resolve("rank-" + r + ".pt.trace.json")));
        }
    }

    /**
     * Three 10 ms backward blocks with a 1 ms all-reduce each, rank 1 three ms late every step: on
     * rank 0 the last reduction runs 4 ms, 3 of them waiting for rank 1 (the job's timing rule, see
     * Job). The advice must name rank 1, not a smaller bucket; rank 1's own 1 ms tail keeps it.
     */
    @Test
    void aTailWaitingForALatePeerIsAdvisedAsSuch() throws IOException {
        io.overlapanalyze.synth.Scenario gaps = Scenario.of("gaps", "three 10 ms blocks",
                List.of(), List.of(
                        Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000)),
                        Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000)),
                        Scenario.Block.us(10_000, Scenario.Bucket.of(26_214_400, 1000))),
                Durations.us(0)).withSteps(2);
        JobWriter.write(Job.healthy("late-peer", 2, gaps).withSlowRank(1, 3_000_000), dir, false);

        CliRun text = CliRun.of("--no-timeline", "--detail", "all", dir.toString());
        assertEquals(0, text.exitCode(), text.err());
        String out = text.out();
        String rank0 = rankBlock(out, 0, 2);
        String rank1 = rankBlock(out, 1, 2);
        // The chain (that collective alone) waited 3 of its 4 ms: the cause is WAIT (metrics.md §6), found across ranks.
        assertTrue(rank0.contains("tail: WAIT in 2 of 2 steps, but the last reduction waited for rank 1 in 2 of 2 "
                + "steps (median 3.000 ms of 4.000 ms)"), rank0);
        assertFalse(rank0.contains("a smaller last bucket"), rank0);
        assertTrue(rank0.contains("it waited 3.000 ms of 4.000 ms for rank 1"), rank0);
        assertTrue(rank1.contains("a smaller last bucket"), rank1);
        // Two numbers, two names: the step's start delay (first bucket) and the launch diagnostics' sum.
        // Here both are 0: every bucket starts as soon as its data is ready; the waiting is inside it.
        assertTrue(rank0.contains(", start delay 0.000 ms"), rank0);
        assertTrue(rank0.contains("3 gradient collectives, summed start delay 0.000 ms"), rank0);
        assertFalse(rank1.contains("waiting for rank"), rank1);

        JsonNode tails = json(CliRun.of("-f", "json", dir.toString())).get("crossRank").get("peerBoundTails");
        assertEquals(2, tails.size(), tails.toString());
        assertEquals(0, tails.get(0).get("rank").asInt());
        assertEquals(1, tails.get(0).get("lateRank").asInt());
        assertEquals(3_000_000, tails.get(0).get("waitNs").asLong());
        assertEquals(4_000_000, tails.get(0).get("durationNs").asLong());
    }

    /** Rank {@code r}'s detail in a --detail all report: from its heading to the next rank's, or the end. */
    private static String rankBlock(String out, int r, int of) {
        int start = out.indexOf("\nrank " + r + " of " + of + "  ");
        assertTrue(start >= 0, "no detail of rank " + r + ":\n" + out);
        int end = r + 1 < of ? out.indexOf("\nrank " + (r + 1) + " of " + of + "  ", start) : -1;
        return end < 0 ? out.substring(start) : out.substring(start, end);
    }
}
