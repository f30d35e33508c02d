package io.overlapanalyze.cli.options;

import io.overlapanalyze.cli.CliRun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * User kernel patterns (--comm-kernel, --fused-kernel, --compute-kernel, --kernel-patterns) on a
 * hand-built trace whose numbers follow from metrics.md §5 by hand: a compute kernel [10, 14] ms, an
 * NCCL kernel [12, 16] ms and {@code my_fused_gemm_rs_kernel} [16, 18] ms, all launched in one step.
 */
class KernelPatternsTest {
    private static final long MS = 1_000_000;

    @TempDir
    Path dir;

    /** A Kineto trace: one step, three launches, three kernels (times in µs). */
    private Path trace() throws IOException {
        String[][] kernels = {
                {"gemm_kernel", "10000", "4000", "7"},
                {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "12000", "4000", "20"},
                {"my_fused_gemm_rs_kernel", "16000", "2000", "7"}};
        List<String> events = new ArrayList<>();
        events.add("{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1,"
                + " \"ts\": 1000, \"dur\": 20000}");
        for (int i = 0; i < kernels.length; i++) {
            int corr = 100 + i;
            events.add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1,"
                    + " \"ts\": " + (2000 + i * 100) + ", \"dur\": 10, \"args\": {\"correlation\": " + corr + "}}");
            events.add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + kernels[i][0] + "\", \"pid\": 0, \"tid\": "
                    + kernels[i][3] + ", \"ts\": " + kernels[i][1] + ", \"dur\": " + kernels[i][2]
                    + ", \"args\": {\"device\": 0, \"stream\": " + kernels[i][3] + ", \"correlation\": " + corr + "}}");
        }
        Path p = dir.resolve("patterns.pt.trace.json");
        Files.writeString(p, "{\"schemaVersion\": 1, \"traceEvents\": [\n" + String.join(",\n", events) + "\n]}",
                StandardCharsets.UTF_8);
        return p;
    }

    private static JsonNode step(String... args) throws IOException {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.err());
        return JsonRenderer.mapper().readTree(run.out()).at("/ranks/0/steps/0");
    }

    private static void assertNumbers(JsonNode s, long compute, long comm, long overlapped, long exposed, long fused) {
        assertEquals(compute * MS, s.get("computeBusyNs").asLong(), "compute");
        assertEquals(comm * MS, s.get("commBusyNs").asLong(), "comm");
        assertEquals(overlapped * MS, s.get("overlappedNs").asLong(), "overlapped");
        assertEquals(exposed * MS, s.get("exposedCommNs").asLong(), "exposed");
        assertEquals(fused * MS, s.get("fusedBusyNs").asLong(), "fused");
        assertEquals(8 * MS, s.get("stepTimeNs").asLong(), "the window [10, 18] whatever the kinds");
    }

    @Test
    void withoutPatternsTheUnknownKernelIsCompute() throws IOException {
        // K = [10,14] ∪ [16,18] = 6, C = [12,16] = 4, C ∩ K = [12,14] = 2, C − K = [14,16] = 2.
        assertNumbers(step("-f", "json", trace().toString()), 6, 4, 2, 2, 0);
    }

    @Test
    void aFusedPatternTakesTheKernelOutOfComputeAndComm() throws IOException {
        // K = [10,14] = 4, C = 4, overlapped 2, exposed 2; F = [16,18] = 2; idle 0 (F is work).
        JsonNode s = step("-f", "json", "--fused-kernel", "my_fused", trace().toString());
        assertNumbers(s, 4, 4, 2, 2, 2);
        assertEquals(0, s.get("idleNs").asLong());
    }

    @Test
    void aCommPatternMakesItCommunication() throws IOException {
        // K = 4, C = [12,18] = 6, overlapped 2, exposed [14,18] = 4.
        assertNumbers(step("-f", "json", "--comm-kernel", "my_fused", trace().toString()), 4, 6, 2, 4, 0);
    }

    @Test
    void computeBeatsFusedBeatsCommWhateverTheOrder() throws IOException {
        Path t = trace();
        assertNumbers(step("-f", "json", "--comm-kernel", "my_fused", "--fused-kernel", "gemm_rs", t.toString()),
                4, 4, 2, 2, 2);
        assertNumbers(step("-f", "json", "--fused-kernel", "gemm_rs", "--compute-kernel", "my_.*_kernel",
                t.toString()), 6, 4, 2, 2, 0);
    }

    @Test
    void aPatternFileSaysTheSame() throws IOException {
        Path file = dir.resolve("kernels.txt");
        Files.writeString(file, "# our fused GEMM + reduce-scatter\nfused   my_fused_gemm\n\n");
        assertNumbers(step("-f", "json", "--kernel-patterns", file.toString(), trace().toString()), 4, 4, 2, 2, 2);
    }

    @Test
    void theTextReportShowsTheFusedKernels() throws IOException {
        CliRun run = CliRun.of("--fused-kernel", "my_fused", trace().toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("fused kernels (compute and communication inside one kernel"), run.out());
        assertTrue(run.out().contains("  fused   |"), "a fused lane in the timeline:\n" + run.out());
    }

    @Test
    void badPatternsAreBadUsage() throws IOException {
        Path t = trace();
        CliRun run = CliRun.of("--comm-kernel", "nccl(", t.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("--comm-kernel: not a valid regular expression 'nccl('"), run.err());

        Path file = dir.resolve("bad.txt");
        Files.writeString(file, "comm nccl\nfusd x\n");
        run = CliRun.of("--kernel-patterns", file.toString(), t.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("bad.txt:2: expected 'comm|fused|compute REGEX'"), run.err());

        run = CliRun.of("--kernel-patterns", dir.resolve("missing.txt").toString(), t.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("missing.txt: cannot read kernel patterns: no such file"), run.err());
    }

    @Test
    void everyCommandThatReadsTracesAcceptsThem() throws IOException {
        Path t = trace();
        for (String[] args : List.of(
                new String[] {"summary", "--fused-kernel", "my_fused", t.toString()},
                new String[] {"annotate", "--fused-kernel", "my_fused", t.toString(), "-o", dir.resolve("a.json").toString()},
                new String[] {"diff", "--fused-kernel", "my_fused", t.toString(), t.toString()})) {
            CliRun run = CliRun.of(args);
            assertEquals(0, run.exitCode(), String.join(" ", args) + ": " + run.err());
        }
        CliRun summary = CliRun.of("summary", "--fused-kernel", "my_fused", t.toString());
        assertEquals(2 * MS, JsonRenderer.mapper().readTree(summary.out()).at("/ranks/0/steps/0/fusedBusyNs").asLong());
    }

    @Test
    void diffComparesFusedBusyOnlyWhenARunHasFusedKernels() throws IOException {
        Path t = trace();
        CliRun with = CliRun.of("diff", "-f", "json", "--fused-kernel", "my_fused", t.toString(), t.toString());
        assertEquals(0, with.exitCode(), with.err());
        JsonNode fused = null;
        for (JsonNode m : JsonRenderer.mapper().readTree(with.out()).get("metrics")) {
            if (m.get("metric").asText().equals("fusedBusy")) {
                fused = m;
            }
        }
        assertTrue(fused != null, with.out());
        assertEquals(2 * MS, fused.get("medianA").asLong());
        assertEquals(2 * MS, fused.get("medianB").asLong());

        CliRun without = CliRun.of("diff", "-f", "json", t.toString(), t.toString());
        assertEquals(0, without.exitCode(), without.err());
        assertTrue(!without.out().contains("fusedBusy"), "no fused kernels on either side: not listed");
    }

    /**
     * The gate checks fused busy time when both runs have fused kernels: 2 ms against 2 ms passes; a
     * run whose fused kernel takes 4 ms (+100 %, +2 ms) fails; without fused kernels there is no check.
     */
    @Test
    void gateChecksFusedBusyWhenBothRunsHaveIt() throws IOException {
        Path base = trace();
        Path slower = dir.resolve("slower.pt.trace.json");
        Files.writeString(slower, Files.readString(base).replace("\"ts\": 16000, \"dur\": 2000",
                "\"ts\": 16000, \"dur\": 4000"));
        CliRun same = CliRun.of("gate", "-f", "json", "--fused-kernel", "my_fused", "--baseline", base.toString(),
                base.toString());
        assertEquals(0, same.exitCode(), same.err());
        assertTrue(same.out().contains("\"fusedBusy\""), same.out());
        CliRun worse = CliRun.of("gate", "-f", "json", "--fused-kernel", "my_fused", "--max-step-time-increase", "off",
                "--min-step-time-delta", "1s", "--baseline", base.toString(), slower.toString());
        assertEquals(1, worse.exitCode(), worse.out() + worse.err());
        JsonNode checks = JsonRenderer.mapper().readTree(worse.out()).get("checks");
        // One step a side: the fused busy growth is over its thresholds but cannot be tested, so it is INCONCLUSIVE
        // (metrics.md §10), which fails the gate like a regression; every other check passes.
        for (JsonNode c : checks) {
            boolean fusedCheck = c.get("metric").asText().equals("fusedBusy");
            assertEquals(fusedCheck, c.get("status").asText().equals("INCONCLUSIVE"), c.toString());
            assertTrue(!c.get("status").asText().equals("REGRESSION"), c.toString());
        }
        CliRun plain = CliRun.of("gate", "-f", "json", "--baseline", base.toString(), base.toString());
        assertEquals(0, plain.exitCode(), plain.err());
        assertTrue(!plain.out().contains("fusedBusy"), plain.out());
    }
}
