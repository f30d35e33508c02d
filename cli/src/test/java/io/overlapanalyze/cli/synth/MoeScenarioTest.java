package io.overlapanalyze.cli.synth;

import io.overlapanalyze.cli.CliRun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.formats.kineto.KinetoReader;
import io.overlapanalyze.formats.nsys.NsysReader;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in {@code moe-ep} scenario (ParallelScenario "moe"), written by {@code synth} as
 * Kineto and as an Nsight export, analysed end to end. Ground truth by hand from the scenario's
 * declared durations (µs): layout 200, attention 1500, mlp 2000, notify 100, dispatch 1200,
 * combine 1000; the schedule of ParallelScenario's "moe" section, per step from t0 = 0:
 * <pre>
 * compute: layout [0, 200], attention(F) [200, 1700], attention(B) [1700, 3200],
 *          mlp(F) [max(3200, 3000) = 3200, 5200], mlp(B) [max(5200, 4500) = 5200, 7200]
 * EP:      notify(F) [1700, 1800], dispatch(F) [1800, 3000],
 *          notify(B) [max(3000, 3200) = 3200, 3300], dispatch(B) [3300, 4500],
 *          combine(F) [max(4500, 5200) = 5200, 6200], combine(B) [max(6200, 7200) = 7200, 8200]
 * K = [0, 7200] = 7200;  C = 1300 + 1300 + 1000 + 1000 = 4600
 * C ∩ K = 1300 + 1300 + 1000 = 3600;  exposed = combine(B) = 1000;  window [0, 8200] = 8200
 * </pre>
 */
class MoeScenarioTest {
    private static final long US = 1000;

    @TempDir
    Path tmp;

    private Path synth(String format) {
        Path out = tmp.resolve(format.equals("nsys") ? "moe.sqlite" : "moe.pt.trace.json");
        CliRun run = CliRun.of("synth", "moe-ep", "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"kineto", "nsys"})
    void everyStepEqualsTheGroundTruth(String format) throws Exception {
        Path trace = synth(format);
        CliRun run = CliRun.of("-f", "json", trace.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode rank = JsonRenderer.mapper().readTree(run.out()).at("/ranks/0");
        JsonNode steps = rank.get("steps");
        assertEquals(2, steps.size(), rank.toString());
        long layout = 200, attention = 1500, mlp = 2000, notify = 100, dispatch = 1200, combine = 1000;
        long compute = layout + 2 * attention + 2 * mlp; // back to back: [0, 7200]
        long comm = 2 * (notify + dispatch) + 2 * combine;
        long exposed = combine; // only combine(B) runs after the last MLP
        long stepTime = compute + combine;
        for (JsonNode s : steps) {
            assertEquals(stepTime * US, s.get("stepTimeNs").asLong(), s.toString());
            assertEquals(compute * US, s.get("computeBusyNs").asLong(), s.toString());
            assertEquals(comm * US, s.get("commBusyNs").asLong(), s.toString());
            assertEquals((comm - exposed) * US, s.get("overlappedNs").asLong(), s.toString());
            assertEquals(exposed * US, s.get("exposedCommNs").asLong(), s.toString());
            assertEquals(6, s.get("commKernels").asInt(), "2 × (notify_dispatch, dispatch, combine)");
            assertEquals(0, s.get("gradCollectives").asInt(), "all-to-all is never a gradient reduction");
        }
        assertTrue(rank.at("/parallelism/kinds").toString().contains("EXPERT_PARALLEL"), rank.get("parallelism").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"kineto", "nsys"})
    void deepEpKernelsAreAllToAllCommunicationAndTheLayoutIsCompute(String format) throws Exception {
        Path trace = synth(format);
        List<RankTrace> ranks = format.equals("nsys") ? new NsysReader().read(trace) : new KinetoReader().read(trace);
        RankTrace r = ranks.get(0);
        int ep = 0;
        DeviceIntervals d = r.device();
        for (int i = 0; i < d.size(); i++) {
            String n = d.name(i);
            if (n.contains("dispatch") && !n.contains("get_dispatch_layout") || n.contains("combine")) {
                assertEquals(DeviceKind.COMM, d.kind(i), n);
                ep++;
            } else {
                assertEquals(DeviceKind.COMPUTE, d.kind(i), n);
            }
        }
        assertEquals(12, ep, "2 steps × 2 micro-batches × (notify_dispatch, dispatch, combine)");
        assertEquals(12, r.collectives().size());
        for (Collective c : r.collectives()) {
            assertEquals(CollectiveType.ALL_TO_ALL, c.type(), c.name());
        }
    }

    /**
     * A scenario file of kind "moe" whose dispatch (2 ms) outlasts the attention that should hide
     * it (1 ms), µs by hand:
     * <pre>
     * layout [0, 100], attention(F) [100, 1100], attention(B) [1100, 2100]
     * notify(F) [1100, 1150], dispatch(F) [1150, 3150], notify(B) [3150, 3200], dispatch(B) [3200, 5200]
     * mlp(F) [max(2100, 3150), +1500] = [3150, 4650], combine(F) [max(5200, 4650), +500] = [5200, 5700]
     * mlp(B) [max(4650, 5200), +1500] = [5200, 6700], combine(B) [max(5700, 6700), +500] = [6700, 7200]
     * K = 2100 + 1500 + 1500 = 5100;  C = [1100, 5700] ∪ [6700, 7200] = 5100
     * C ∩ K = 1000 + 1500 + 500 = 3000;  exposed 2100;  window 7200
     * </pre>
     */
    @ParameterizedTest
    @ValueSource(strings = {"kineto", "nsys"})
    void aScenarioFileWithALongDispatch(String format) throws Exception {
        Path file = tmp.resolve("moe-long.scenario.json");
        Files.writeString(file, "{\"kind\": \"moe\", \"name\": \"moe-long\", \"layoutUs\": 100, \"attentionUs\": 1000,"
                + " \"mlpUs\": 1500, \"notifyUs\": 50, \"dispatchUs\": 2000, \"combineUs\": 500}");
        Path out = tmp.resolve(format.equals("nsys") ? "long.sqlite" : "long.pt.trace.json");
        CliRun synth = CliRun.of("synth", file.toString(), "-o", out.toString());
        assertEquals(0, synth.exitCode(), synth.err());
        CliRun run = CliRun.of("-f", "json", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode s = JsonRenderer.mapper().readTree(run.out()).at("/ranks/0/steps/0");
        assertEquals(7200 * US, s.get("stepTimeNs").asLong(), s.toString());
        assertEquals(5100 * US, s.get("computeBusyNs").asLong(), s.toString());
        assertEquals(5100 * US, s.get("commBusyNs").asLong(), s.toString());
        assertEquals(3000 * US, s.get("overlappedNs").asLong(), s.toString());
        assertEquals(2100 * US, s.get("exposedCommNs").asLong(), s.toString());

        Files.writeString(file, "{\"kind\": \"moe\", \"name\": \"x\", \"attentionUs\": 1, \"mlpUs\": 1,"
                + " \"dispatchUs\": 1, \"combineUs\": 1, \"expertsUs\": 3}");
        CliRun bad = CliRun.of("synth", file.toString(), "-o", tmp.resolve("bad.json").toString());
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("expertsUs: unknown field"), bad.err());
    }

    @org.junit.jupiter.api.Test
    void kinetoTraceCarriesTheMicroBatchAnnotationsOnTheDeviceStreams() throws Exception {
        String text = Files.readString(synth("kineto"));
        for (String name : List.of("attention(F)", "dispatch(F)", "mlp(B)", "combine(B)")) {
            assertTrue(text.contains("\"name\" : \"" + name + "\""), name);
        }
        assertTrue(text.contains("\"cat\" : \"gpu_user_annotation\""));
    }
}
