package io.overlapanalyze.cli.synth;

import io.overlapanalyze.cli.CliRun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.formats.ascend.AscendReader;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in {@code ascend-mc2} job in the three Ascend inputs we read: the torch_npu text export,
 * its DB export, and the text export's {@code trace_view.json} alone (a bare timeline). Per step,
 * µs from the step's device origin (AscendMc2Writer.OPS):
 * <pre>
 * compute stream: FlashAttentionScore [0, 1000] AI_CORE, MatmulAllReduce [1000, 2500] MIX_AIC,
 *                 MatMulV3 [2500, 3500] AI_CORE, AllGatherMatmul [3500, 4500] MIX_AIC,
 *                 MatmulReduceScatter [4500, 5200] MIX_AIC, Add [5200, 5800] AI_VECTOR_CORE,
 *                 MoeDistributeDispatch [6000, 6600] MIX_AIV, MoeDistributeCombine [6600, 7000] MIX_AIV
 * kfc stream (AI_CPU) and, with the same spans, the kfc ops on the communication lane:
 *                 [1000, 2400], [3500, 4400], [4500, 5300], [6000, 6500], [6600, 7100]
 * HCCL:           hcom_allReduce [5000, 6000]
 * </pre>
 * Ours (metrics.md §1, §5: MC² kernels and their communication records are FUSED):
 * K = 1000 + 1000 + 600 = 2600; C = 1000; C ∩ K = [5200, 5800] = 600; exposed 400;
 * F = [1000, 2500] ∪ [3500, 5300] ∪ [6000, 7100] = 1500 + 1800 + 1100 = 4400; window [0, 7100];
 * fusedComm = the kfc ops = 1400 + 900 + 800 + 500 + 500 = 4100; fusedCompute unknown.
 * Huawei's lane (MC² kernel as Computing, kfc op as Communication, kfc stream left out):
 * Computing = [0, 5800] ∪ [6000, 7000] = 6800; Communication = [1000, 2400] ∪ [3500, 4400] ∪
 * [4500, 6500] ∪ [6600, 7100] = 1400 + 900 + 2000 + 500 = 4800; Not overlapped = [5800, 6000] ∪
 * [7000, 7100] = 300. The cross-check counts our side the same way on these steps: differences 0.
 */
class AscendMc2ScenarioTest {
    private static final long US = 1000;

    @TempDir
    Path tmp;

    private Path input(String form) throws Exception {
        Path dir = tmp.resolve(form.equals("db") ? "db_ascend_pt" : "text_ascend_pt");
        CliRun run = CliRun.of("synth", "ascend-mc2", "-o", dir.toString(), "--format",
                form.equals("db") ? "ascend-db" : "ascend");
        assertEquals(0, run.exitCode(), run.err());
        if (form.equals("bare")) {
            Path bare = Files.createDirectories(tmp.resolve("loose")).resolve("trace_view.json");
            Files.copy(dir.resolve("ASCEND_PROFILER_OUTPUT/trace_view.json"), bare);
            return bare;
        }
        return dir;
    }

    @ParameterizedTest
    @ValueSource(strings = {"text", "db", "bare"})
    void fusedIntervalsAndGroundTruthInEveryAscendInput(String form) throws Exception {
        Path in = input(form);
        RankTrace r = new AscendReader().read(in).get(0);
        DeviceIntervals d = r.device();
        int fused = 0;
        for (int i = 0; i < d.size(); i++) {
            String n = d.name(i);
            boolean mc2 = n.contains("MatmulAllReduce") || n.contains("AllGatherMatmul")
                    || n.contains("MatmulReduceScatter") || n.contains("MoeDistribute");
            if (mc2) {
                assertEquals(DeviceKind.FUSED, d.kind(i), n);
            }
            if (d.kind(i) == DeviceKind.FUSED) {
                assertTrue(mc2, n);
                fused++;
            } else if (n.startsWith("hcom_")) {
                assertEquals(DeviceKind.COMM, d.kind(i), n);
            }
        }
        assertEquals(2 * 15, fused, "per step 5 MC² kernels, 5 kfc tasks, 5 kfc ops");

        CliRun run = CliRun.of("-f", "json", in.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode rank = JsonRenderer.mapper().readTree(run.out()).at("/ranks/0");
        // The kfc ops are the fused kernels' own communication, not collectives: no FSDP evidence from
        // AllGatherMatmul / MatmulReduceScatter, and the only all-reduces are the two HCCL ones.
        String parallelism = rank.get("parallelism").toString();
        assertTrue(!parallelism.contains("FSDP") && !parallelism.contains("all-gather"), parallelism);
        assertTrue(!parallelism.contains("all-reduce") || parallelism.contains("2 all-reduces"), parallelism);
        JsonNode steps = rank.get("steps");
        assertEquals(2, steps.size(), rank.toString());
        for (JsonNode s : steps) {
            assertEquals(7100 * US, s.get("stepTimeNs").asLong(), s.toString());
            assertEquals(2600 * US, s.get("computeBusyNs").asLong(), s.toString());
            assertEquals(1000 * US, s.get("commBusyNs").asLong(), s.toString());
            assertEquals(600 * US, s.get("overlappedNs").asLong(), s.toString());
            assertEquals(400 * US, s.get("exposedCommNs").asLong(), s.toString());
            assertEquals(4400 * US, s.get("fusedBusyNs").asLong(), s.toString());
            assertEquals(4100 * US, s.get("fusedCommNs").asLong(), s.toString());
            assertTrue(s.get("fusedComputeNs").isNull(), s.toString());
        }
        {
            JsonNode cc = rank.get("crossCheck");
            assertEquals(2, cc.size(), rank.toString());
            for (JsonNode row : cc) {
                assertEquals(6800 * US, row.at("/computing/theirsNs").asLong(), row.toString());
                assertEquals(4800 * US, row.at("/communication/theirsNs").asLong(), row.toString());
                assertEquals(300 * US, row.at("/exposedCommunication/theirsNs").asLong(), row.toString());
                assertEquals(0, row.at("/computing/diffNs").asLong(), row.toString());
                assertEquals(0, row.at("/communication/diffNs").asLong(), row.toString());
                assertEquals(0, row.at("/exposedCommunication/diffNs").asLong(), row.toString());
                assertTrue(row.get("oursCounted").asText().contains("MC2"), row.toString());
            }
        }
    }

    /**
     * The profiler's split of the HCCL all-reduce [5000, 6000] µs (AscendMc2Writer.HCCL_TRANSIT_US:
     * Transit 400 µs, at its end) in communication.json (text) and analysis.db CommAnalyzerTime (DB):
     * exposed = [5000, 5200] ∪ [5800, 6000]; its waiting stretch [5000, 5600] covers the first 200 µs,
     * its transfer [5600, 6000] the last 200 µs. The bare timeline has no side file and two instances
     * only: no split.
     */
    @ParameterizedTest
    @ValueSource(strings = {"text", "db", "bare"})
    void theProfilersSplitOfTheAllReduce(String form) throws Exception {
        CliRun run = CliRun.of("-f", "json", input(form).toString());
        assertEquals(0, run.exitCode(), run.err());
        for (JsonNode s : JsonRenderer.mapper().readTree(run.out()).at("/ranks/0/steps")) {
            JsonNode cs = s.get("commSplit");
            if (form.equals("bare")) {
                assertTrue(cs.get("waitNs").isNull() && cs.get("source").isNull(), cs.toString());
            } else {
                assertEquals(200 * US, cs.get("waitNs").asLong(), cs.toString());
                assertEquals(200 * US, cs.get("transferNs").asLong(), cs.toString());
                assertEquals("profiler", cs.get("source").asText(), cs.toString());
            }
        }
    }
}
