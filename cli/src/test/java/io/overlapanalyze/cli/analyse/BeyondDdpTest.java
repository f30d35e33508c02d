package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.report.ContentionReport;
import io.overlapanalyze.report.PipelineReport;
import io.overlapanalyze.report.PrefetchReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.synth.ParallelScenarioWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyses beyond DDP on generated traces: every expected number comes from the scenario's
 * definition (ParallelScenario's device semantics), worked out by hand in the comments.
 */
class BeyondDdpTest {
    @TempDir
    Path tmp;

    private RankReport analyze(String scenarioJson) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ParallelScenarioWriter.writeJson(scenarioJson, bytes, "t.pt.trace.json");
        Path file = tmp.resolve("t.pt.trace.json");
        Files.write(file, bytes.toByteArray());
        return RankAnalyzer.analyze(TraceFormats.standard().read(file).get(0), AnalysisOptions.defaults());
    }

    /**
     * Four layers, forward 1 ms each; forward prefetches 400 µs except layer 3's, 1500 µs. Layer 3's
     * all-gather starts when layer 2 starts and ends 1500 µs later; layer 2 ends after 1000 µs: the
     * compute stream waits exactly 500 µs. Every other all-gather (400 µs under ≥ 500 µs of compute)
     * is on time. Backward all-gathers are 400 µs under 500 µs (head) or 2 ms (backward) of compute.
     */
    static String fsdp(boolean syncEvents) {
        String layer = "{\"fwdUs\": 1000, \"bwdUs\": 2000, \"agUs\": 400, \"bwdAgUs\": 400, \"rsUs\": 600, "
                + "\"paramBytes\": 16777216}";
        String late = "{\"fwdUs\": 1000, \"bwdUs\": 2000, \"agUs\": 1500, \"bwdAgUs\": 400, \"rsUs\": 600, "
                + "\"paramBytes\": 16777216}";
        return "{\"kind\": \"fsdp\", \"name\": \"f\", \"steps\": 3, \"inputUs\": 500, \"headUs\": 500, "
                + "\"syncEvents\": " + syncEvents + ", \"layers\": [" + layer + ", " + layer + ", " + late + ", " + layer
                + "]}";
    }

    @ParameterizedTest(name = "syncEvents={0}")
    @ValueSource(booleans = {true, false})
    void latePrefetchFoundWithItsWaitAndOnTimeOnesShowNone(boolean syncEvents) throws Exception {
        RankReport rank = analyze(fsdp(syncEvents));
        assertEquals(List.of("FSDP"), rank.parallelism().kinds());
        assertNull(rank.notAvailable().prefetch());
        assertEquals(3, rank.steps().size());
        for (StepReport s : rank.steps()) {
            assertEquals(8, s.prefetches().size(), "4 forward + 4 backward all-gathers");
            List<PrefetchReport> late = s.prefetches().stream().filter(p -> p.waitNs() > 0).toList();
            assertEquals(1, late.size(), s.prefetches().toString());
            PrefetchReport p = late.get(0);
            assertEquals("FORWARD", p.phase());
            assertEquals(1_500_000L, p.endNs() - p.startNs(), "the 1.5 ms all-gather of layer 3");
            assertTrue(Math.abs(p.waitNs() - 500_000L) <= 1_000L, "wait " + p.waitNs());
            assertTrue(Math.abs(p.lateNs() - 500_000L) <= 1_000L, "late " + p.lateNs());
            assertTrue(Math.abs(s.exposedPrefetchNs() - 500_000L) <= 1_000L);
            assertEquals(syncEvents ? "STREAM_WAIT" : "DEVICE_ORDER", p.rule());
            for (PrefetchReport q : s.prefetches()) {
                if (q != p) {
                    assertEquals(0L, q.waitNs(), "on-time prefetch " + q);
                    assertEquals(0L, q.lateNs(), "on-time prefetch " + q);
                    assertNotNull(q.consumerKernel());
                }
            }
            // The gradient analysis keeps working: G = the 4 reduce-scatters; layer 1's 600 µs
            // reduce-scatter starts when its backward ends, the last compute: tail 600 µs.
            assertEquals(4, s.gradCollectives());
            assertEquals(600_000L, s.tailNs());
            assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
            assertNotNull(s.launch());
            assertEquals(0L, s.launch().startDelayNs(), "reduce-scatters start when their gradients are ready");
        }
    }

    /**
     * Allocator semantics of the FSDP scenario: 2 GiB baseline; during layer k's backward the
     * unsharded parameters of layer k and of the prefetched layer k−1 and layer k's unsharded
     * gradient are alive at once: peak = 2 GiB + 3 × paramBytes. The diff shows it moving when the
     * layers double.
     */
    @Test
    void peakAllocatedFollowsTheParametersAndMovesInDiff() throws Exception {
        long p = 16_777_216L;
        RankReport rank = analyze(fsdp(true));
        for (StepReport s : rank.steps()) {
            assertEquals(2L * 1024 * 1024 * 1024 + 3 * p, s.peakAllocatedBytes(), s.name());
        }
        Path a = tmp.resolve("a.json");
        Path b = tmp.resolve("b.json");
        Files.writeString(a, fsdp(true));
        Files.writeString(b, fsdp(true).replace("16777216", "33554432"));
        Path ta = tmp.resolve("a.pt.trace.json");
        Path tb = tmp.resolve("b.pt.trace.json");
        assertEquals(0, CliRun.of("synth", a.toString(), "-o", ta.toString()).exitCode());
        assertEquals(0, CliRun.of("synth", b.toString(), "-o", tb.toString()).exitCode());
        CliRun diff = CliRun.of("diff", ta.toString(), tb.toString(), "-f", "json");
        assertEquals(0, diff.exitCode(), diff.err());
        var d = new com.fasterxml.jackson.databind.ObjectMapper().readTree(diff.out());
        com.fasterxml.jackson.databind.JsonNode peak = null;
        for (var m : d.get("metrics")) {
            if (m.get("metric").asText().equals("peakAllocated")) {
                peak = m;
            }
        }
        assertNotNull(peak, diff.out());
        assertEquals(3 * p, peak.get("absChange").asLong(), "3 × 16 MiB more at the peak");
        CliRun seedDiff = CliRun.of("diff", SamplesTest.samples().resolve("seed-1ms.pt.trace.json").toString(),
                SamplesTest.samples().resolve("seed-4ms.pt.trace.json").toString(), "-f", "json");
        assertTrue(!seedDiff.out().contains("peakAllocated"), "no allocator events on either side: no row");
    }

    /**
     * Stage 1 of 4, 4 micro-batches, forward 1 ms, backward 2 ms, p2p 200 µs, arrivals every
     * 1.2 ms, turnaround 2.5 ms. Relative to t0, by the scenario's rules:
     * forward recv b = [1200b, 1200b+200), forward b = [1200b+200, 1200b+1200), send b = [1200b+1200, +200)
     * (recv b+1 coincides with send b); last forward end F = 4800.
     * backward recv j = [7100+1200j, +200), backward j runs [7300+2000j, 9300+2000j) (compute-bound),
     * send j = [9300+2000j, +200).
     * P = fwd [0,200) [1200,1400) [2400,2600) [3600,3800) [4800,5000) = 1000 µs; bwd [7100,7300)
     * [8300,8500) [9300,9700) [10700,10900) [11300,11500) [13300,13500) [15300,15500) = 1600 µs.
     * K = [200,1200) [1400,2400) [2600,3600) [3800,4800) [7300,15300).
     * P ∩ K = [8300,8500) [9300,9700) [10700,10900) [11300,11500) [13300,13500) = 1200 µs; exposed 1400.
     * Window [0, 15500): W − K = [0,200) [1200,1400) [2400,2600) [3600,3800) [4800,7300) [15300,15500)
     * = 3500 µs in 6 bubbles, the largest 2500 µs.
     */
    @Test
    void pipelineP2pOverlapAndBubbles() throws Exception {
        RankReport rank = analyze("{\"kind\": \"pipeline\", \"name\": \"p\", \"rank\": 1, \"worldSize\": 4, "
                + "\"steps\": 2, \"stage\": 1, \"stages\": 4, \"microBatches\": 4, \"fwdUs\": 1000, \"bwdUs\": 2000, "
                + "\"p2pUs\": 200, \"arrivalIntervalUs\": 1200, \"turnaroundUs\": 2500}");
        assertEquals(List.of("PIPELINE"), rank.parallelism().kinds());
        for (StepReport s : rank.steps()) {
            PipelineReport p = s.pipeline();
            assertNotNull(p);
            assertEquals(16, p.p2pCollectives());
            assertEquals(2_600_000L, p.p2pBusyNs());
            assertEquals(1_200_000L, p.p2pOverlappedNs());
            assertEquals(1_400_000L, p.p2pExposedNs());
            assertEquals(3_500_000L, p.bubbleNs());
            assertEquals(6, p.bubbles());
            assertEquals(2_500_000L, p.largestBubbleNs());
            assertEquals(0, s.gradCollectives(), "send/recv are not gradient reductions");
        }
        assertNotNull(rank.notAvailable().prefetch());
        assertNotNull(rank.notAvailable().memory());
    }

    /** A GEMM 20 % slower under communication (3 % jitter): reported within 2 percentage points. */
    @Test
    void contentionSlowdownWithinTwoPoints() throws Exception {
        RankReport rank = analyze("{\"kind\": \"contention\", \"name\": \"c\", \"steps\": 4, \"kernelUs\": 100, "
                + "\"kernels\": 16, \"slowdownPct\": 20, \"jitterPct\": 3, \"seed\": 7}");
        assertNull(rank.notAvailable().contention());
        assertEquals(1, rank.contention().size(), rank.contention().toString());
        ContentionReport c = rank.contention().get(0);
        assertTrue(c.kernel().startsWith("sm80_xmma_gemm"));
        assertEquals(64, c.overlappedCount(), "16 per step under the all-reduce, 4 steps");
        assertEquals(64, c.isolatedCount(), "16 per step in forward, 4 steps");
        assertTrue(Math.abs(c.slowdownPct() - 20.0) <= 2.0, "slowdown " + c.slowdownPct());
        // 16 instances × ~20 µs extra each ≈ 320 µs per step (jitter: within 10 %).
        assertTrue(Math.abs(c.extraPerStepNs() - 320_000L) <= 32_000L, "extra " + c.extraPerStepNs());
        assertEquals(List.of("DDP"), rank.parallelism().kinds());
    }

    /** No jitter: 100 µs isolated, exactly 120 µs overlapped. */
    @Test
    void contentionExactWithoutJitter() throws Exception {
        RankReport rank = analyze("{\"kind\": \"contention\", \"name\": \"c\", \"steps\": 2, \"kernelUs\": 100, "
                + "\"kernels\": 8, \"slowdownPct\": 20}");
        ContentionReport c = rank.contention().get(0);
        assertEquals(100_000L, c.isolatedMedianNs());
        assertEquals(120_000L, c.overlappedMedianNs());
        assertEquals(20.0, c.slowdownPct(), 1e-9);
        assertEquals(8 * 20_000L, c.extraPerStepNs());
    }

    /**
     * One GEMM name run in two launch shapes (ParallelScenario "fasterPct"), no jitter, 2 steps,
     * 8 kernels per shape and side per step, so 16 instances per shape and side:
     * <ul>
     *   <li>shape A, grid [132,1,1] block [128,1,1]: 100 µs alone, 120 µs under the all-reduce:
     *       20 % slower, (120 − 100) µs × 16 / 2 steps = 160 µs extra per step;</li>
     *   <li>shape B, grid [264,1,1] block [256,1,1]: 200 µs alone, round(200 × 95 / 100) = 190 µs
     *       under it: 5 % faster, (190 − 200) µs × 16 / 2 = −80 µs (saved) per step.</li>
     * </ul>
     * Net: 160 − 80 = +80 µs per step. Grouped by name alone, the medians would mix the shapes
     * (150 µs alone vs 155 µs overlapped: "+3.3 %"), hiding both effects.
     */
    @Test
    void contentionSplitsOneKernelNameByLaunchShape() throws Exception {
        String scenario = "{\"kind\": \"contention\", \"name\": \"c\", \"steps\": 2, \"kernelUs\": 100, "
                + "\"kernels\": 8, \"slowdownPct\": 20, \"fasterPct\": 5}";
        RankReport rank = analyze(scenario);
        assertNull(rank.notAvailable().contention());
        assertEquals(2, rank.contention().size(), rank.contention().toString());
        ContentionReport a = rank.contention().get(0);
        ContentionReport b = rank.contention().get(1);
        assertEquals(a.kernel(), b.kernel(), "one kernel name");
        assertEquals(List.of(132, 1, 1), a.grid());
        assertEquals(List.of(128, 1, 1), a.block());
        assertEquals(16, a.overlappedCount());
        assertEquals(16, a.isolatedCount());
        assertEquals(120_000L, a.overlappedMedianNs());
        assertEquals(100_000L, a.isolatedMedianNs());
        assertEquals(20.0, a.slowdownPct(), 1e-9);
        assertEquals(160_000L, a.extraPerStepNs());
        assertFalse(a.fasterUnderOverlap());
        assertEquals(List.of(264, 1, 1), b.grid());
        assertEquals(List.of(256, 1, 1), b.block());
        assertEquals(16, b.overlappedCount());
        assertEquals(16, b.isolatedCount());
        assertEquals(190_000L, b.overlappedMedianNs());
        assertEquals(200_000L, b.isolatedMedianNs());
        assertEquals(-5.0, b.slowdownPct(), 1e-9);
        assertEquals(-80_000L, b.extraPerStepNs());
        assertTrue(b.fasterUnderOverlap());
        assertEquals(80_000L, rank.contentionNetExtraPerStepNs());

        Path file = tmp.resolve("shapes.pt.trace.json");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ParallelScenarioWriter.writeJson(scenario, bytes, file.getFileName().toString());
        Files.write(file, bytes.toByteArray());
        for (String format : List.of("text", "markdown")) {
            CliRun run = CliRun.of(file.toString(), "--format", format);
            assertEquals(0, run.exitCode(), run.err());
            String out = run.out();
            // Markdown escapes the brackets of a kernel's launch shape as it escapes any text from a trace.
            String open = format.equals("markdown") ? "\\[" : "[";
            assertTrue(out.contains("grid=" + open + "132,1,1] block=" + open + "128,1,1]"), out);
            assertTrue(out.contains("grid=" + open + "264,1,1] block=" + open + "256,1,1]"), out);
            assertTrue(out.contains("20.0% slower"), out);
            assertTrue(out.contains("5.0% faster"), out);
            assertTrue(out.contains("+0.160 extra"), out);
            assertTrue(out.contains("0.080 saved"), out);
            assertFalse(out.contains("-5.0%"), "a faster kernel is no negative slowdown: " + out);
            assertTrue(out.contains("net per step: +0.080 ms (slower kernels +0.160 ms, faster kernels -0.080 ms)"),
                    out);
        }
        CliRun json = CliRun.of(file.toString(), "--format", "json");
        assertTrue(json.out().contains("\"fasterUnderOverlap\" : true"), json.out());
        assertTrue(json.out().contains("\"grid\" : [ 264, 1, 1 ]"), json.out());
    }

    /** Sections a trace cannot fill say why, in every renderer, instead of printing zeros. */
    @Test
    void missingInputsAreSaidNotZeroed() throws Exception {
        Path seed = SamplesTest.samples().resolve("seed-1ms.pt.trace.json");
        CliRun text = CliRun.of(seed.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("memory: not available: the trace has no device allocator events"), text.out());
        assertTrue(text.out().contains("prefetch: not available: no all-gathers"), text.out());
        assertTrue(text.out().contains("pipeline: not available: no send/recv"), text.out());
        assertTrue(text.out().contains("compute slowdown under overlap: not available"), text.out());
        CliRun md = CliRun.of(seed.toString(), "--format", "markdown");
        assertTrue(md.out().contains("not available: the trace has no device allocator events"), md.out());
        CliRun json = CliRun.of(seed.toString(), "--format", "json");
        assertTrue(json.out().contains("\"peakAllocatedBytes\" : null"), json.out());
        assertTrue(json.out().contains("\"memory\" : \"the trace has no device allocator events"), json.out());
        assertTrue(json.out().contains("\"parallelism\""), json.out());
        assertTrue(json.out().contains("\"kinds\" : [ \"DDP\" ]"), json.out());
    }

    @Test
    void synthWritesTheBuiltinsAndRefusesOtherFormats() throws Exception {
        for (String name : ParallelScenarioWriter.builtinNames()) {
            Path out = tmp.resolve(name + ".json");
            CliRun run = CliRun.of("synth", name, "-o", out.toString());
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(Files.isRegularFile(out));
        }
        CliRun nsys = CliRun.of("synth", "fsdp-late-prefetch", "-o", tmp.resolve("x.sqlite").toString());
        assertEquals(2, nsys.exitCode());
        assertTrue(nsys.err().contains("Kineto traces only"), nsys.err());
        CliRun list = CliRun.of("synth", "--list");
        assertTrue(list.out().contains("fsdp-late-prefetch") && list.out().contains("pipeline-4stage"), list.out());
    }
}
