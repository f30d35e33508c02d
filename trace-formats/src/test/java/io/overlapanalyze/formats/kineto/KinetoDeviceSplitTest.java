package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One Kineto file whose process drove two devices: one rank per device, never one merged rank. */
class KinetoDeviceSplitTest {
    @TempDir
    Path dir;

    /** Host thread 11 of process 100 launches everything; correlations link launches to device work. */
    private static final String HOST = """
            {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":11,"ts":0,"dur":1000,"args":{}},
            {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":11,"ts":10,"dur":5,"args":{"correlation":1}},
            {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":11,"ts":20,"dur":5,"args":{"correlation":2}},
            {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":11,"ts":30,"dur":5,"args":{"correlation":3}},
            {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":11,"ts":40,"dur":5,"args":{"correlation":4}},
            {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":11,"ts":50,"dur":5,"args":{"correlation":5}},
            """;

    /**
     * Device 0: a compute kernel [100, 200) µs on stream 7 and an NCCL kernel [150, 250) on stream 20;
     * device 3: compute [120, 320) on stream 7 and two NCCL kernels [300, 400), [400, 450) on stream 20.
     */
    private static final String DEVICES = """
            {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":100,"dur":100,"args":{"device":0,"stream":7,"correlation":1}},
            {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","pid":0,"tid":20,"ts":150,"dur":100,"args":{"device":0,"stream":20,"correlation":2}},
            {"ph":"X","cat":"kernel","name":"gemm","pid":3,"tid":7,"ts":120,"dur":200,"args":{"device":3,"stream":7,"correlation":3}},
            {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","pid":3,"tid":20,"ts":300,"dur":100,"args":{"device":3,"stream":20,"correlation":4}},
            {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","pid":3,"tid":20,"ts":400,"dur":50,"args":{"device":3,"stream":20,"correlation":5}},
            {"ph":"i","cat":"cpu_instant_event","name":"[memory]","pid":100,"tid":11,"ts":60,"s":"t","args":{"Device Type":1,"Device Id":0,"Bytes":8,"Total Allocated":1000}},
            {"ph":"i","cat":"cpu_instant_event","name":"[memory]","pid":100,"tid":11,"ts":61,"s":"t","args":{"Device Type":1,"Device Id":3,"Bytes":8,"Total Allocated":3000}},
            {"ph":"i","cat":"cpu_instant_event","name":"[memory]","pid":100,"tid":11,"ts":62,"s":"t","args":{"Device Type":1,"Device Id":3,"Bytes":8,"Total Allocated":3008}}
            """;

    private List<RankTrace> read(String header, String events) throws Exception {
        Path f = dir.resolve("two.json");
        Files.writeString(f, "{" + header + "\"traceEvents\":[" + events + "]}", StandardCharsets.UTF_8);
        List<RankTrace> scanner = new KinetoReader().read(f);
        // The split happens after either path: the reference path gives the same ranks.
        List<RankTrace> jackson = DeviceSplit.split(new KinetoReader().readWithJackson(f));
        assertEquals(scanner.size(), jackson.size());
        for (int k = 0; k < scanner.size(); k++) {
            assertEquals(KinetoParity.dump(jackson.get(k)), KinetoParity.dump(scanner.get(k)), f + " rank " + k);
        }
        return scanner;
    }

    @Test
    void withoutARankTheDevicesAreNumberedInDeviceOrder() throws Exception {
        List<RankTrace> ranks = read("", HOST + DEVICES);
        assertEquals(2, ranks.size(), "one rank per device");
        Path f = dir.resolve("two.json");
        RankTrace d0 = ranks.get(0);
        RankTrace d3 = ranks.get(1);
        assertEquals(f + " device 0", d0.source());
        assertEquals(f + " device 3", d3.source());
        assertEquals(0, d0.rank());
        assertEquals(1, d3.rank());
        assertEquals(RankSource.INFERRED, d0.rankSource());
        assertEquals(RankSource.INFERRED, d3.rankSource());
        assertEquals(-1, d0.worldSize());
        assertTrue(d0.warnings().get(d0.warnings().size() - 1).contains("holds the work of 2 devices (0, 3) and names no"
                + " rank"), d0.warnings().toString());
        assertTrue(d3.warnings().get(d3.warnings().size() - 1).endsWith("device 3 is rank 1"), d3.warnings().toString());

        // Each rank holds only its device's work, in its own lanes, with its launches.
        assertEquals(List.of(new Lane(0, 0, 7, "stream 7"), new Lane(1, 0, 20, "stream 20")), d0.lanes());
        assertEquals(List.of(new Lane(0, 3, 7, "stream 7"), new Lane(1, 3, 20, "stream 20")), d3.lanes());
        assertIntervals(d0, new long[][] {{100, 200, 10}, {150, 250, 20}});
        assertIntervals(d3, new long[][] {{120, 320, 30}, {300, 400, 40}, {400, 450, 50}});
        assertEquals(List.of(DeviceKind.COMPUTE, DeviceKind.COMM), kinds(d0));
        assertEquals(List.of(DeviceKind.COMPUTE, DeviceKind.COMM, DeviceKind.COMM), kinds(d3));

        // Collectives go with their kernels, renumbered; the interval store points back at them.
        assertEquals(1, d0.collectives().size());
        assertEquals(2, d3.collectives().size());
        assertPartition(d0);
        assertPartition(d3);

        // Host spans are the process's: both ranks have the step.
        assertEquals(1, d0.hostSpans().size());
        assertEquals(d0.hostSpans(), d3.hostSpans());

        // Allocator samples go to their device.
        assertEquals(1, d0.memory().size());
        assertEquals(1000, d0.memory().totalAllocated(0));
        assertEquals(2, d3.memory().size());
        assertEquals(3008, d3.memory().totalAllocated(1));
    }

    @Test
    void theTracesRankGoesToTheDeviceThatRanItsCommunication() throws Exception {
        String header = "\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":3,\"world_size\":8},";
        // A collective op with no kernel (a CPU-side collective) belongs to the process: both ranks get it.
        String hostOnly = """
                {"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":100,"tid":11,"ts":600,"dur":10,"args":{"External id":77,"Collective name":"allreduce","dtype":"Float","In msg nelems":4,"Out msg nelems":4,"Group size":8}},
                """;
        List<RankTrace> ranks = read(header, HOST + hostOnly + DEVICES);
        assertEquals(2, ranks.size());
        RankTrace d0 = ranks.get(0);
        RankTrace d3 = ranks.get(1);
        // Device 3 ran two of the three NCCL kernels: it is the trace's rank 3.
        assertEquals(3, d3.rank());
        assertEquals(RankSource.TRACE, d3.rankSource());
        assertEquals(8, d3.worldSize());
        // Device 0 cannot be rank 3 too: an id after the job's ranks, so cross-rank analysis leaves it out.
        assertEquals(8, d0.rank());
        assertEquals(RankSource.INFERRED, d0.rankSource());
        assertEquals(-1, d0.worldSize());
        String w0 = d0.warnings().get(d0.warnings().size() - 1);
        assertTrue(w0.contains("says it is rank 3 but holds the work of 2 devices (0, 3)")
                && w0.contains("this device (0) is reported separately under rank id 8, outside the job's 8 ranks"), w0);
        String w3 = d3.warnings().get(d3.warnings().size() - 1);
        assertTrue(w3.contains("device 3, which ran most of its communication, is rank 3"), w3);

        assertEquals(2, d0.collectives().size(), "its kernel's collective and the host-only one");
        assertEquals(3, d3.collectives().size(), "its two kernels' collectives and the host-only one");
        assertEquals(1, d0.collectives().stream().filter(c -> c.deviceIntervals().length == 0).count());
        assertEquals(1, d3.collectives().stream().filter(c -> c.deviceIntervals().length == 0).count());
        assertPartition(d0);
        assertPartition(d3);
    }

    @Test
    void oneDeviceStaysOneRankUnderTheFileName() throws Exception {
        String oneDevice = DEVICES.lines().filter(l -> !l.contains("\"pid\":3")).reduce((a, b) -> a + "\n" + b)
                .orElseThrow().replaceAll(",\\s*$", "");
        List<RankTrace> ranks = read("", HOST + oneDevice);
        assertEquals(1, ranks.size());
        RankTrace t = ranks.get(0);
        assertEquals(dir.resolve("two.json").toString(), t.source());
        assertEquals(RankSource.DEFAULT, t.rankSource());
        assertEquals(List.of(), t.warnings());
        assertEquals(3, t.memory().size(), "a single rank keeps every sample, as before");
    }

    /** {start µs, end µs, launch µs} per interval, in file order. */
    private static void assertIntervals(RankTrace t, long[][] expected) {
        DeviceIntervals d = t.device();
        assertEquals(expected.length, d.size());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i][0] * 1000, d.start(i), "start " + i);
            assertEquals(expected[i][1] * 1000, d.end(i), "end " + i);
            assertEquals(expected[i][2] * 1000, d.launchNs(i), "launch " + i);
            assertEquals(11, d.launchThread(i));
        }
    }

    private static List<DeviceKind> kinds(RankTrace t) {
        List<DeviceKind> out = new ArrayList<>();
        for (int i = 0; i < t.device().size(); i++) {
            out.add(t.device().kind(i));
        }
        return out;
    }

    private static void assertPartition(RankTrace t) {
        DeviceIntervals d = t.device();
        int[] owner = new int[d.size()];
        java.util.Arrays.fill(owner, -1);
        for (int k = 0; k < t.collectives().size(); k++) {
            Collective c = t.collectives().get(k);
            assertEquals(k, c.id());
            for (int i : c.deviceIntervals()) {
                assertEquals(-1, owner[i]);
                owner[i] = k;
            }
        }
        for (int i = 0; i < d.size(); i++) {
            assertEquals(owner[i], d.collective(i), "interval " + i);
            assertEquals(d.kind(i) == DeviceKind.COMM, owner[i] >= 0, "interval " + i);
        }
    }
}
