package io.overlapanalyze.crossrank.digest;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Straggler;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cross-rank analysis over digests that went through Java serialization gives the same JSON as
 * over the full inputs, on generated jobs (slow rank, reordered collective, truncated rank), on a
 * hand-written expert-parallel job with pre-capture work, on the samples' jobs and on the real
 * multi-rank traces; and a digest is much smaller than the trace it came from.
 */
class RankDigestTest {
    private static final long US = 1000;
    /** The real traces, from the build (../shared/traces next to the project), as every such test finds them. */
    private static final Path SHARED = Path.of(System.getProperty("overlap.sharedTraces", "../shared/traces"));

    @TempDir
    Path dir;

    /**
     * Per step: a forward of 2 × 4 kernels, a backward of 3 blocks of 6 kernels, each block's bucket
     * all-reduced for 1 ms under the next block: 29 intervals, of which the cross-rank analysis needs
     * the 3 collectives and the compute under them.
     */
    private static Scenario model(int steps) {
        String gemm = "volta_sgemm_128x64_nn";
        List<Scenario.Block> forward = List.of(new Scenario.Block("aten::mm", gemm, 500 * US, 4, null),
                new Scenario.Block("aten::mm", gemm, 500 * US, 4, null));
        List<Scenario.Block> backward = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            backward.add(new Scenario.Block("aten::mm", gemm, 2000 * US, 6,
                    Scenario.Bucket.of(BuiltinScenarios.BUCKET_BYTES, 1000)));
        }
        return Scenario.of("model", "forward and backward of several kernels, three buckets", forward, backward, 0)
                .withSteps(steps);
    }

    /** A job of {@code ranks} ranks with three buckets per step of two types, a slow rank and two buckets swapped. */
    private static Job slowAndReordered(int ranks, int steps) {
        Scenario s = model(steps);
        return Job.healthy("job", ranks, s)
                .withBucketTypes(List.of("allreduce", "reducescatter", "allreduce"))
                .withSlowRank(ranks / 3, 2000 * US)
                .withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.REORDER, ranks - 1,
                        s.firstStep() + steps - 1, 2, null)); // last step: timing stops at a type mismatch
    }

    private static void assertStragglerTableIsNotTrivial(CrossRankReport r) {
        assertTrue(r.stragglers().stream().anyMatch(s -> s.exposedCommNs() > 0), r.stragglers().toString());
        assertTrue(r.stragglers().stream().anyMatch(s -> s.exposedWaitNs() > 0), r.stragglers().toString());
    }

    @Test
    void sixteenRanksWithASlowRankAndAReorderedCollective() throws Exception {
        List<RankInput> full = DigestCheck.readKineto(JobWriter.write(slowAndReordered(16, 10), dir, false));
        DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(full, List.of());
        assertEquals(16, o.full().ranks().size());
        assertFalse(o.full().mismatches().isEmpty(), "the swapped buckets are a mismatch");
        assertStragglerTableIsNotTrivial(o.full());
        assertEquals(10, o.full().worstTails().size(), "a tail per step");
        // 29 intervals a step, of which 3 collectives: a digest that kept every interval fails this.
        assertTrue(o.keptIntervals() * 2 < o.fullIntervals(), o.keptIntervals() + " of " + o.fullIntervals());
    }

    @Test
    void sixtyFourRanksSixtyStepsGiveTheSameAnswerFromAFractionOfTheIntervals() throws Exception {
        List<RankInput> full = DigestCheck.readKineto(JobWriter.write(slowAndReordered(64, 60), dir, false));
        DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(full, List.of());
        assertEquals(64, o.full().ranks().size());
        assertFalse(o.full().mismatches().isEmpty());
        assertStragglerTableIsNotTrivial(o.full());
        System.out.printf("digest of a 64-rank 60-step job: %d of %d intervals kept, %d bytes per rank serialised%n",
                o.keptIntervals(), o.fullIntervals(), o.bytesPerRank());
        assertTrue(o.keptIntervals() * 2 < o.fullIntervals(), o.keptIntervals() + " of " + o.fullIntervals());
        assertTrue(o.bytesPerRank() < 64 * 1024, o.bytesPerRank() + " bytes per rank");
    }

    /**
     * Three 10 ms backward blocks, 1 ms all-reduce after each, rank 1 starts every step 3 ms late: on
     * rank 0 each step's last all-reduce runs 4 ms, 3 of them waiting for rank 1, so both tails of
     * rank 0 are peer-bound (metrics.md §8).
     */
    @Test
    void peerBoundTailsGiveTheSameAnswer() throws Exception {
        Scenario gaps = Scenario.of("gaps", "three 10 ms blocks", List.of(), List.of(
                Scenario.Block.us(10_000, Scenario.Bucket.of(BuiltinScenarios.BUCKET_BYTES, 1000)),
                Scenario.Block.us(10_000, Scenario.Bucket.of(BuiltinScenarios.BUCKET_BYTES, 1000)),
                Scenario.Block.us(10_000, Scenario.Bucket.of(BuiltinScenarios.BUCKET_BYTES, 1000))), 0).withSteps(2);
        Job job = Job.healthy("late-peer", 2, gaps).withSlowRank(1, 3000 * US);
        DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(
                DigestCheck.readKineto(JobWriter.write(job, dir, false)), List.of());
        assertEquals(2, o.full().peerBoundTails().size(), o.full().peerBoundTails().toString());
        assertEquals(3000 * US, o.full().peerBoundTails().get(0).waitNs());
    }

    @Test
    void aTruncatedRankGivesTheSameAnswer() throws Exception {
        List<Path> files = JobWriter.write(slowAndReordered(4, 8), dir, false);
        Path last = files.get(files.size() - 1);
        byte[] all = Files.readAllBytes(last);
        Files.write(last, Arrays.copyOf(all, all.length * 8 / 10)); // a generated file of this test, cut
        List<RankInput> full = DigestCheck.readKineto(files);
        assertTrue(full.get(full.size() - 1).trace().truncated(), "the cut rank reads as truncated");
        DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(full, List.of());
        assertTrue(o.full().notes().stream().anyMatch(n -> n.contains("truncated")), o.full().notes().toString());
    }

    // Hand-written ranks: one step; compute on stream 7, NCCL on stream 20, DeepEP on stream 30; an
    // all-reduce and a compute kernel still running from before the capture (correlation below the
    // first runtime call's).
    private static final String DISPATCH = "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*)";
    private static final String COMBINE = "void deep_ep::intranode::combine<nv_bfloat16, 8, 768>(nv_bfloat16*)";
    private static final String ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long)";
    private static final String GEMM = "volta_sgemm_128x64_nn";

    private record Kernel(String name, long stream, long tsUs, long durUs) {
    }

    private Path rank(int rank, List<Kernel> kernels) throws IOException {
        List<String> events = new ArrayList<>();
        events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": 1000, \"dur\": 30000}");
        events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + ALL_REDUCE + "\", \"pid\": 0, \"tid\": 20,"
                + " \"ts\": 500, \"dur\": 800, \"args\": {\"device\": 0, \"stream\": 20, \"correlation\": 5}}");
        events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + GEMM + "\", \"pid\": 0, \"tid\": 7,"
                + " \"ts\": 400, \"dur\": 1000, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 6}}");
        for (int i = 0; i < kernels.size(); i++) {
            Kernel k = kernels.get(i);
            int corr = 100 + i;
            events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
                    + " \"tid\": 1, \"ts\": " + (2000 + i * 100) + ", \"dur\": 10, \"args\": {\"correlation\": "
                    + corr + "}}");
            events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + k.name() + "\", \"pid\": 0, \"tid\": "
                    + k.stream() + ", \"ts\": " + k.tsUs() + ", \"dur\": " + k.durUs() + ", \"args\": {\"device\": 0, "
                    + "\"stream\": " + k.stream() + ", \"correlation\": " + corr + "}}");
        }
        Path p = dir.resolve("rank" + rank + ".pt.trace.json");
        Files.writeString(p, "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": " + rank + ", \"world_size\": 2},"
                + " \"traceEvents\": [\n" + String.join(",\n", events) + "\n]}", StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void expertParallelGroupsAndPreCaptureCollectivesGiveTheSameAnswer() throws Exception {
        // Rank 1's dispatch arrives 800 µs late and ends with rank 0's: rank 0 waits 800 µs, 300 of them
        // outside its compute [10000, 11500) µs, so its exposed wait is 300 µs.
        Kernel gemm1 = new Kernel(GEMM, 7, 10_000, 1_500);
        Kernel gemm2 = new Kernel(GEMM, 7, 15_000, 3_000);
        Kernel gemm3 = new Kernel(GEMM, 7, 21_000, 2_000);
        Kernel combine = new Kernel(COMBINE, 30, 17_000, 1_500);
        Kernel allReduce2 = new Kernel(ALL_REDUCE, 20, 20_000, 2_500);
        Path r0 = rank(0, List.of(gemm1, new Kernel(DISPATCH, 30, 11_000, 1_500), new Kernel(ALL_REDUCE, 20, 14_000,
                2_000), gemm2, combine, gemm3, allReduce2));
        Path r1 = rank(1, List.of(gemm1, new Kernel(ALL_REDUCE, 20, 14_000, 2_000), new Kernel(DISPATCH, 30, 11_800,
                700), gemm2, combine, gemm3, allReduce2));
        List<RankInput> full = DigestCheck.readKineto(List.of(r0, r1));
        DeviceIntervals d0 = full.get(0).trace().device();
        assertEquals(2, d0.preCaptureCount(), "the all-reduce and the gemm before the capture");
        DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(full, List.of());
        assertTrue(o.full().groups().stream().anyMatch(g -> g.group().equals("expert-parallel")),
                o.full().groups().toString());
        Straggler s0 = o.full().stragglers().stream().filter(s -> s.rank() == 0).findFirst().orElseThrow();
        assertEquals(300 * US, s0.exposedWaitNs(), "hand computation in the comment above");

        RankTrace digest = DigestCheck.roundTrip(RankDigest.of(full.get(0))).toInput().trace();
        assertEquals(1, digest.device().preCaptureCount(), "the pre-capture all-reduce stays, flagged; the gemm goes");
    }

    @Test
    void theSamplesJobsGiveTheSameAnswer() {
        for (String job : List.of("job-healthy-4rank", "job-order-mismatch")) {
            PipelineResult r = DigestCheck.pipeline(List.of(samples().resolve(job)));
            assertEquals(4, r.inputs().size(), job);
            DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(r.inputs(), r.unreadable());
            assertEquals(DigestCheck.json(r.report().crossRank()), DigestCheck.json(o.full()), job);
            if (job.equals("job-order-mismatch")) {
                assertFalse(o.full().mismatches().isEmpty(), job);
            }
        }
    }

    @Test
    void theRealMultiRankTracesGiveTheSameAnswer() throws IOException {
        Assumptions.assumeTrue(Files.isDirectory(SHARED), "no shared traces at " + SHARED + ": skipped");
        List<List<Path>> jobs = new ArrayList<>();
        jobs.add(List.of(SHARED.resolve("kineto/hta_trace_filter_sampled_rank0of128.json.gz"),
                SHARED.resolve("kineto/hta_trace_filter_sampled_rank1of128.json.gz")));
        try (Stream<Path> nsys = Files.list(SHARED.resolve("nsys"))) {
            nsys.filter(p -> p.getFileName().toString().contains("2gpu")).sorted().forEach(p -> jobs.add(List.of(p)));
        }
        try (Stream<Path> ascend = Files.list(SHARED.resolve("ascend"))) {
            ascend.sorted().forEach(p -> jobs.add(List.of(p)));
        }
        int compared = 0;
        for (List<Path> job : jobs) {
            if (!job.stream().allMatch(Files::exists)) {
                System.out.println("skipped (absent): " + job);
                continue;
            }
            PipelineResult r = DigestCheck.pipeline(job);
            if (r.inputs().size() < 2) {
                continue; // one rank: nothing across ranks
            }
            DigestCheck.Outcome o = DigestCheck.assertSameCrossRank(r.inputs(), r.unreadable());
            System.out.printf("same cross-rank answer from digests: %s (%d ranks, %d of %d intervals kept)%n", job,
                    o.ranks(), o.keptIntervals(), o.fullIntervals());
            compared++;
        }
        assertTrue(compared >= 1, "the kineto pair at least is a two-rank job");
    }

    static Path samples() {
        Path p = Path.of("samples");
        return Files.isDirectory(p) ? p : Path.of("..", "samples");
    }
}
