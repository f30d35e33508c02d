package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reader rules on small hand-written timelines (ascend.md §3–§5). */
class AscendReaderTest {
    @TempDir
    Path tmp;

    // pid = (osPid << 10) | (sortIndex << 5) | device: 3170820512 is device 0, 3170820513 device 1.
    private static String meta(long pid, String process, long tid, String thread, String label) {
        return "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"name\":\"" + process + "\"}},\n"
                + (label == null ? "" : "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":" + pid
                + ",\"tid\":0,\"args\":{\"labels\":\"" + label + "\"}},\n")
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid
                + ",\"args\":{\"name\":\"" + thread + "\"}}";
    }

    private static String x(long pid, long tid, String name, String ts, String dur, String args) {
        return "{\"name\":\"" + name + "\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"ts\":" + ts + ",\"dur\":" + dur
                + (args == null ? "" : ",\"args\":" + args) + ",\"ph\":\"X\"}";
    }

    @Test
    void hcomNames() {
        HcclOpName a = HcclOpName.parse("hcom_allReduce__586_12_1");
        assertEquals(CollectiveType.ALL_REDUCE, a.type());
        assertEquals("586", a.groupTag());
        assertEquals(12, a.sequence());
        HcclOpName old = HcclOpName.parse("hcom_broadcast__483_0");
        assertEquals(CollectiveType.BROADCAST, old.type());
        assertEquals(0, old.sequence());
        HcclOpName aicpu = HcclOpName.parse("hcom_reduceScatter_AicpuKernel_503_490_1");
        assertEquals(CollectiveType.REDUCE_SCATTER, aicpu.type());
        assertEquals(490, aicpu.sequence());
        assertEquals(CollectiveType.RECV, HcclOpName.parse("hcom_receive__1_2_1").type());
        assertNull(HcclOpName.parse("Memcpy"));
    }

    /**
     * Metadata after the events, ts as a string and as a number, a dur with sub-ns digits (rounded
     * half-up at the 4th decimal, the same in every run), the communication stream's hardware tasks
     * never compute, and the plane task not an interval.
     */
    @Test
    void lanesByMetadataNamesAndExactTimes() throws Exception {
        long hw = 3170820512L;
        long hccl = 3170820576L;
        String json = "[\n"
                + x(hw, 2, "conv", "\"1736408883704643.212\"", "53.7415625", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(hw, 2, "wait", "1736408883704700.000", "1", "{\"Task Type\":\"EVENT_WAIT_SQE\"}") + ",\n"
                + x(hw, 4, "odd", "\"1736408883704800.000\"", "2", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(hccl, 0, "hcom_allReduce__586_3_1", "\"1736408883704900.001\"", "10.0004",
                "{\"data_type\":\"FP32\",\"count\":10}") + ",\n"
                + x(hccl, 1, "Memcpy", "\"1736408883704901.000\"", "1", "{\"stream id\":4}") + ",\n"
                + meta(hw, "Ascend Hardware", 2, "Stream 2", "NPU") + ",\n"
                + meta(hccl, "HCCL", 0, "Group 0 Communication", "NPU") + ",\n"
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + hccl + ",\"tid\":1,\"args\":{\"name\":\"Plane 0\"}}\n]";
        Path f = Files.writeString(tmp.resolve("trace_view.json"), json);
        RankTrace t = new AscendReader().read(f).get(0);
        assertEquals(4, t.device().size(), "3 hardware tasks + 1 collective op; the plane task is no interval");
        assertEquals(1736408883704643212L, t.device().start(0));
        assertEquals(1736408883704643212L + 53742, t.device().end(0), "53.7415625 µs → 53742 ns (half-up)");
        assertEquals(DeviceKind.COMPUTE, t.device().kind(0));
        assertEquals(DeviceKind.SYNC, t.device().kind(1));
        assertEquals(DeviceKind.OTHER, t.device().kind(2), "AI_CORE on the communication stream is not compute");
        assertEquals(DeviceKind.COMM, t.device().kind(3));
        assertEquals(10_000L, t.device().duration(3));
        assertEquals(1, t.collectives().size());
        assertEquals(3, t.collectives().get(0).sequence());
        assertEquals("586", t.collectives().get(0).group().name());
        assertEquals(40, t.collectives().get(0).bytes());
        assertEquals(RankSource.DEFAULT, t.rankSource());
    }

    /** An msprof tree: newest slices read as one timeline, one rank per device from info.json.N. */
    @Test
    void msprofTreeWithSlicesAndTwoDevices() throws Exception {
        Path prof = tmp.resolve("PROF_000001_20250101000000000_ABCDEF");
        Path out = Files.createDirectories(prof.resolve("mindstudio_profiler_output"));
        for (int d = 0; d < 2; d++) {
            Path dev = Files.createDirectories(prof.resolve("device_" + d));
            Files.writeString(dev.resolve("info.json." + d), "{\"rank_id\": " + (4 + d) + "}");
        }
        long hw0 = 800;
        long hw1 = 801;
        String header = meta(hw0, "Ascend Hardware", 2, "Stream 2", "NPU 0") + ",\n"
                + meta(hw1, "Ascend Hardware", 2, "Stream 2", "NPU 1");
        Files.writeString(out.resolve("msprof_slice_0_20250101000000.json"), "[" + header + ",\n"
                + x(hw0, 2, "a", "\"100.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + "]");
        Files.writeString(out.resolve("msprof_slice_1_20250101000000.json"), "[" + header + ",\n"
                + x(hw1, 2, "b", "\"200.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + "]");
        Files.writeString(out.resolve("msprof_slice_0_20240101000000.json"), "[]"); // older: ignored
        assertTrue(AscendReader.isCaptureDirectory(prof));
        List<RankTrace> ranks = new AscendReader().read(prof);
        assertEquals(2, ranks.size());
        assertEquals(4, ranks.get(0).rank());
        assertEquals(5, ranks.get(1).rank());
        assertEquals(RankSource.TRACE, ranks.get(1).rankSource());
        assertEquals(100_000L, ranks.get(0).device().start(0));
        assertEquals(200_000L, ranks.get(1).device().start(0));
    }

    /**
     * MC² operators run as compute-type tasks (MIX_AIC here) but communicate inside themselves:
     * FUSED by their name, never compute (metrics.md §1). A plain matmul stays compute.
     */
    @Test
    void mc2TasksAreFused() throws Exception {
        long hw = 800;
        String json = "[" + meta(hw, "Ascend Hardware", 2, "Stream 2", "NPU") + ",\n"
                + x(hw, 2, "MatMul", "\"100.000\"", "5", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(hw, 2, "MatmulAllReduce", "\"110.000\"", "7", "{\"Task Type\":\"MIX_AIC\"}") + ",\n"
                + x(hw, 2, "aclnnMoeDistributeDispatch_MoeDistributeDispatch", "\"120.000\"", "3",
                "{\"Task Type\":\"MIX_AIV\"}") + "\n]";
        Path f = Files.writeString(tmp.resolve("trace_view.json"), json);
        RankTrace t = new AscendReader().read(f).get(0);
        assertEquals(3, t.device().size());
        assertEquals(DeviceKind.COMPUTE, t.device().kind(0));
        assertEquals(DeviceKind.FUSED, t.device().kind(1));
        assertEquals(DeviceKind.FUSED, t.device().kind(2));
    }
}
