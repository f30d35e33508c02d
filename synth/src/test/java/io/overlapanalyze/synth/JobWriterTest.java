package io.overlapanalyze.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job planner's synchronous-collective model, and what the job writer puts in each rank file. */
class JobWriterTest {
    private static final long US = 1000;

    private static Job seedJob(int ranks, int steps) {
        return Job.healthy("job", ranks, BuiltinScenarios.get("seed-1ms").withSteps(steps));
    }

    @Test
    void healthyJobIsEveryRankThePlainScenario() {
        // No slow rank, no offsets: every rank arrives together, so the job's timeline is the single-rank plan.
        JobTimeline job = JobWriter.plan(seedJob(4, 2));
        SyntheticTimeline single = KinetoScenarioWriter.plan(BuiltinScenarios.get("seed-1ms").withSteps(2));
        for (SyntheticTimeline t : job.ranks()) {
            for (int i = 0; i < 2; i++) {
                assertEquals(single.steps().get(i).reductions(), t.steps().get(i).reductions());
            }
        }
    }

    @Test
    void slowRankMakesEveryCollectiveEndAtItsArrivalPlusTransfer() {
        long delay = 250 * US;
        JobTimeline job = JobWriter.plan(seedJob(4, 3).withSlowRank(2, delay));
        for (PlannedStep step : job.ranks().get(0).steps()) {
            for (PlannedReduction r0 : step.reductions()) {
                PlannedReduction slow = job.reduction(2, step.number(), r0.bucket());
                // seed-1ms: 2 ms blocks, 1 ms all-reduce: never queue-bound, so the slow rank is late by exactly the delay
                assertEquals(r0.start() + delay, slow.start());
                for (int r = 0; r < 4; r++) {
                    PlannedReduction red = job.reduction(r, step.number(), r0.bucket());
                    assertEquals(slow.start() + 1000 * US, red.end(), "synchronous end, rank " + r);
                }
            }
        }
    }

    @Test
    void writesOneFilePerRankWithItsRankAndClockOffset(@TempDir Path dir) throws IOException {
        List<Long> offsets = List.of(0L, 37 * US, -120 * US, 83 * US);
        Job job = seedJob(4, 1).withClockOffsetsNs(offsets);
        List<Path> files = JobWriter.write(job, dir, false);
        assertEquals(4, files.size());
        JsonMapper m = new JsonMapper();
        for (int r = 0; r < 4; r++) {
            assertEquals("rank-" + r + ".pt.trace.json", files.get(r).getFileName().toString());
            JsonNode root = m.readTree(Files.readString(files.get(r)));
            assertEquals(r, root.get("distributedInfo").get("rank").asInt());
            assertEquals(4, root.get("distributedInfo").get("world_size").asInt());
            assertEquals(TimelinePlanner.BASE_TIME_NS + offsets.get(r), root.get("baseTimeNanoseconds").asLong());
        }
    }

    @Test
    void perturbationsChangeWhatTheRankWrites(@TempDir Path dir) throws IOException {
        Job job = seedJob(4, 2).withBucketTypes(List.of("allreduce", "reducescatter", "allreduce"))
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.REORDER, 1, 2, 2, null))
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 3, 2, 3, null))
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.DTYPE, 2, 1, 1, null))
                .withSequenceNumbers(true);
        JobTimeline plan = JobWriter.plan(job);
        assertNull(plan.reduction(3, 2, 3), "skipped collective is not in the ground truth");
        JobWriter.write(job, dir, false);
        assertEquals(List.of("allreduce", "_reduce_scatter_base", "allreduce", "allreduce", "allreduce",
                "_reduce_scatter_base"), names(dir.resolve("rank-1.pt.trace.json"), "Collective name"));
        assertEquals(List.of("allreduce", "_reduce_scatter_base", "allreduce", "allreduce", "_reduce_scatter_base"),
                names(dir.resolve("rank-3.pt.trace.json"), "Collective name"));
        assertEquals(List.of("BFloat16", "Float", "Float", "Float", "Float", "Float"),
                names(dir.resolve("rank-2.pt.trace.json"), "dtype"));
        assertEquals(List.of("0", "1", "2", "3", "4"), names(dir.resolve("rank-3.pt.trace.json"), "Seq"));
        // reduce_scatter over 4 ranks: out = in / 4 (25 MiB of float32 in)
        List<String> out = names(dir.resolve("rank-0.pt.trace.json"), "Out msg nelems");
        assertEquals(Long.toString(BuiltinScenarios.BUCKET_BYTES / 4 / 4), out.get(1));
    }

    @Test
    void badJobsAreOneLineErrors() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> Job.parse(
                "{\"name\": \"j\", \"ranks\": 2, \"scenario\": \"seed-1ms\", \"clockOffsetUs\": [1]}", "<t>"));
        assertTrue(e.getMessage().startsWith("job <t>: clockOffsetUs needs one value per rank"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> Job.parse(
                "{\"name\": \"j\", \"ranks\": 2, \"scenario\": \"seed-1ms\", \"perturbations\": "
                        + "[{\"kind\": \"skip\", \"rank\": 5, \"step\": 1, \"bucket\": 1}]}", "<t>"));
        assertTrue(e.getMessage().contains("rank must be in [0, 2)"), e.getMessage());
    }

    @Test
    void parsesAJobFile() {
        Job job = Job.parse("{\"name\": \"j\", \"ranks\": 3, \"scenario\": \"seed-4ms\", \"steps\": 2,"
                + " \"clockOffsetUs\": [0, 1.5, -2], \"slowRank\": 1, \"delayUs\": 100,"
                + " \"perturbations\": [{\"kind\": \"size\", \"rank\": 0, \"step\": 2, \"bucket\": 3, \"elements\": 8}]}",
                "<t>");
        assertEquals(3, job.ranks());
        assertEquals(2, job.scenario().steps());
        assertEquals(List.of(0L, 1500L, -2000L), job.clockOffsetsNs());
        assertEquals(1, job.slowRank());
        assertEquals(100 * US, job.slowDelayNs());
        assertEquals("8", job.perturbations().get(0).value());
    }

    /** The value of {@code arg} on every record_param_comms, in file order. */
    private static List<String> names(Path file, String arg) throws IOException {
        JsonNode root = new JsonMapper().readTree(Files.readString(file));
        List<String> out = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if ("record_param_comms".equals(e.path("name").asText())) {
                out.add(e.get("args").get(arg).asText());
            }
        }
        return out;
    }
}
