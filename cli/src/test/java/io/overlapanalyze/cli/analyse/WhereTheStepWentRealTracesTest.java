package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the step went (metrics.md §11) on the real traces of ../shared/traces: the contract's
 * ResNet reference reproduced at the precision the contract prints it, and on every trace, per
 * step, the breakdown adding up to the period and the idle split to the idle.
 */
class WhereTheStepWentRealTracesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** ns rounded half up to a unit (1,000 = µs, 10,000 = 10 µs, 100,000 = 0.1 ms). */
    private static long rounded(long ns, long unit) {
        return Math.floorDiv(ns + unit / 2, unit);
    }

    @Test
    void resnetStep4IsTheContractsReference() throws Exception {
        Path trace = SharedTraces.kineto("hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz");
        CliRun run = CliRun.of("-f", "json", trace.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        JsonNode step = null;
        for (JsonNode s : JSON.readTree(run.out()).get("ranks").get(0).get("steps")) {
            if (s.get("name").asText().equals("ProfilerStep#4")) {
                step = s;
            }
        }
        assertNotNull(step, "ProfilerStep#4");
        // metrics.md §11: period 222.055 ms = compute 38.506 + comm alone 10.164 + copies 0.769
        // + idle 172.616 ms, of which 162.071 ms host-bound.
        assertEquals(222_055, rounded(step.get("stepPeriodNs").asLong(), 1_000));
        JsonNode b = step.get("breakdown");
        assertEquals(38_506, rounded(b.get("computeNs").asLong(), 1_000));
        assertEquals(0, b.get("fusedNs").asLong());
        assertEquals(10_164, rounded(b.get("commNs").asLong(), 1_000));
        assertEquals(769, rounded(b.get("copyNs").asLong(), 1_000));
        assertEquals(172_616, rounded(b.get("idleNs").asLong(), 1_000));
        JsonNode idle = step.get("idle");
        assertEquals(162_071, rounded(idle.get("hostNs").asLong(), 1_000));
        assertEquals(0, idle.get("unknownNs").asLong(), "every gap-ending kernel has its launch in this trace");
        Map<String, Long> activity = new HashMap<>();
        for (JsonNode a : idle.get("hostActivity")) {
            activity.put(a.get("name").asText(), a.get("ns").asLong());
        }
        // `## forward ##` 85.74 ms and `## optimizer ##` 14.05 ms: the contract prints 10 µs.
        assertEquals(8_574, rounded(activity.getOrDefault("## forward ##", 0L), 10_000), activity.toString());
        assertEquals(1_405, rounded(activity.getOrDefault("## optimizer ##", 0L), 10_000), activity.toString());
        // "autograd 27.7 ms": the autograd thread (pt_autograd_0) shows no range of its own around the
        // backward pass, only the engine's per-function ranges; its two largest are the contract's figure.
        long autograd = activity.getOrDefault("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", 0L)
                + activity.getOrDefault("autograd::engine::evaluate_function: CudnnBatchNormBackward0", 0L);
        assertEquals(277, rounded(autograd, 100_000), activity.toString());
        assertEquals("## forward ##", idle.get("hostActivity").get(0).get("name").asText(), "largest first");
    }

    static Stream<Path> realTraces() throws Exception {
        return RealTraceStepsTest.realTraces();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("realTraces")
    void breakdownAddsUpToThePeriodAndTheIdleSplitToTheIdle(Path trace) throws Exception {
        CliRun run = CliRun.of("-f", "json", trace.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        int checked = 0;
        for (JsonNode rank : JSON.readTree(run.out()).get("ranks")) {
            for (JsonNode s : rank.get("steps")) {
                String where = trace.getFileName() + " rank " + rank.get("rank") + " " + s.get("name").asText();
                JsonNode b = s.get("breakdown");
                if (s.get("stepPeriodNs") == null || s.get("stepPeriodNs").isNull()) {
                    assertTrue(b == null || b.isNull(), where + ": no period, no breakdown");
                    assertTrue(s.get("idle") == null || s.get("idle").isNull(), where);
                    continue;
                }
                long sum = b.get("computeNs").asLong() + b.get("fusedNs").asLong() + b.get("commNs").asLong()
                        + b.get("copyNs").asLong() + b.get("idleNs").asLong();
                assertEquals(s.get("stepPeriodNs").asLong(), sum, where + ": breakdown = period");
                assertEquals(s.get("idleNs").asLong(), b.get("idleNs").asLong(), where + ": breakdown idle = idle");
                JsonNode idle = s.get("idle");
                assertEquals(s.get("idleNs").asLong(), idle.get("hostNs").asLong() + idle.get("launchedNs").asLong()
                        + idle.get("unknownNs").asLong(), where + ": idle split = idle");
                long previous = Long.MAX_VALUE;
                long listed = 0;
                for (JsonNode a : idle.get("hostActivity")) {
                    assertTrue(a.get("ns").asLong() <= previous, where + ": largest first");
                    previous = a.get("ns").asLong();
                    listed += previous;
                }
                assertTrue(listed <= idle.get("hostNs").asLong(), where + ": host activities within host-bound idle");
                checked++;
            }
        }
        assertTrue(checked > 0 || trace.toString().contains("nokernels") || trace.toString().contains("cpu_only"),
                trace + ": no step with a period");
    }
}
