package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The published traces in shared/traces/kineto, against the numbers PROVENANCE.md states. */
class KinetoRealTracesTest {
    private static Path dir() {
        String root = System.getProperty("overlap.sharedTraces", "../shared/traces");
        Path d = Path.of(root, "kineto");
        Assumptions.assumeTrue(Files.isDirectory(d), "shared traces not found at " + d + ": skipping");
        return d;
    }

    private static RankTrace read(String name) throws Exception {
        Path p = dir().resolve(name);
        Assumptions.assumeTrue(Files.isRegularFile(p), p + " not found: skipping");
        return new KinetoReader().read(p).get(0);
    }

    private static long count(DeviceIntervals d, DeviceKind kind) {
        long n = 0;
        for (int i = 0; i < d.size(); i++) {
            if (d.kind(i) == kind) {
                n++;
            }
        }
        return n;
    }

    /** Every COMM interval belongs to exactly one collective, and collectives point back at it. */
    private static void assertCommPartition(RankTrace t) {
        DeviceIntervals d = t.device();
        int[] owner = new int[d.size()];
        java.util.Arrays.fill(owner, -1);
        for (Collective c : t.collectives()) {
            for (int i : c.deviceIntervals()) {
                assertEquals(-1, owner[i], "interval " + i + " in two collectives");
                owner[i] = c.id();
            }
        }
        for (int i = 0; i < d.size(); i++) {
            assertEquals(owner[i], d.collective(i), "interval " + i);
            assertEquals(d.kind(i) == DeviceKind.COMM, owner[i] >= 0, "interval " + i + " " + d.name(i));
        }
        for (int k = 0; k < t.collectives().size(); k++) {
            assertEquals(k, t.collectives().get(k).id());
        }
    }

    @Test
    void everyKinetoTraceLoads() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir())) {
            files = s.filter(p -> p.getFileName().toString().contains(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        for (Path p : files) {
            RankTrace t = new KinetoReader().read(p).get(0);
            assertFalse(t.truncated(), p.toString());
            assertEquals(0, t.unmatchedLaunchNs().length, p + ": every kernel/copy launch has its device event");
            assertCommPartition(t);
            List<HostSpan> spans = t.hostSpans();
            for (int i = 1; i < spans.size(); i++) {
                assertTrue(spans.get(i - 1).startNs() <= spans.get(i).startNs(), p.toString());
            }
        }
    }

    @Test
    void ncclDataResnetDdp() throws Exception {
        RankTrace t = read("hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz");
        assertEquals(0, t.rank());
        assertEquals(2, t.worldSize());
        assertEquals(RankSource.TRACE, t.rankSource());
        assertEquals(List.of(new ProcessGroup("0", "default_pg", List.of(0, 1))), t.groups());
        assertEquals(List.of(), t.warnings());
        DeviceIntervals d = t.device();
        assertEquals(3 * 1258, d.size(), "kernels + memcpy + memset");
        assertEquals(21, count(d, DeviceKind.COMM));
        for (int i = 0; i < d.size(); i++) {
            if (d.name(i).startsWith("ncclKernel_")) {
                assertEquals(DeviceKind.COMM, d.kind(i));
                assertEquals(40, t.lanes().get(d.lane(i)).stream());
            }
        }
        List<Long> streams = t.lanes().stream().map(Lane::stream).toList();
        assertTrue(streams.contains(7L) && streams.contains(40L), streams.toString());

        // 27 record_param_comms: per step 2 broadcasts, 2 waits (not collectives), 5 all-reduces.
        List<Collective> cs = t.collectives();
        assertEquals(21, cs.size());
        assertEquals(15, cs.stream().filter(c -> c.type() == CollectiveType.ALL_REDUCE).count());
        assertEquals(6, cs.stream().filter(c -> c.type() == CollectiveType.BROADCAST).count());
        List<Long> allReduceElements = new ArrayList<>();
        for (Collective c : cs) {
            assertEquals(1, c.deviceIntervals().length, c.toString());
            assertEquals("0", c.group().name());
            assertTrue(c.enqueueNs() <= d.launchNs(c.deviceIntervals()[0]), "enqueued before its launch");
            if (c.type() == CollectiveType.ALL_REDUCE) {
                assertEquals("Float", c.dtype());
                assertEquals(c.inElements() * 4, c.bytes());
                allReduceElements.add(c.inElements());
            }
        }
        List<Long> perStep = List.of(2_049_000L, 7_875_584L, 6_563_840L, 6_637_568L, 2_431_040L);
        List<Long> expected = new ArrayList<>();
        for (int step = 0; step < 3; step++) {
            expected.addAll(perStep);
        }
        assertEquals(expected, allReduceElements, "DDP buckets in host order, identical every step");
        List<Long> broadcastElements = cs.stream().filter(c -> c.type() == CollectiveType.BROADCAST)
                .map(Collective::inElements).toList();
        assertEquals(List.of(53_120L, 53L, 53_120L, 53L, 53_120L, 53L), broadcastElements);

        List<String> steps = t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).map(HostSpan::name).toList();
        assertEquals(List.of("ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6"), steps);
        assertEquals(3, t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.OPTIMIZER).count());
        assertTrue(t.threads().stream().anyMatch(th -> th.autograd()));
        // baseTimeNanoseconds 1711964646000000000 + ts 4458677009853.422 µs (kineto.md §8).
        boolean found = false;
        for (int i = 0; i < d.size(); i++) {
            if (d.start(i) == 1711964646000000000L + 4458677009853422L) {
                found = true;
                break;
            }
        }
        assertTrue(found, "exact absolute ns of the AllReduce kernel quoted in kineto.md");
    }

    @Test
    void dfIndexResolverLegacyCollectives() throws Exception {
        RankTrace t = read("hta_df_index_resolver_rank1of2_v100_memory.json.gz");
        assertEquals(1, t.rank());
        assertEquals(2, t.worldSize());
        assertEquals(2020, count(t.device(), DeviceKind.COMM));
        assertEquals(5, t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count());
        // 4,040 arg-less record_param_comms: one per all-reduce (with its nccl:all_reduce
        // annotation and kernel), one bookkeeping op each (no annotation, no kernel).
        assertEquals(2020, t.collectives().size());
        assertTrue(t.collectives().stream().allMatch(c -> c.type() == CollectiveType.ALL_REDUCE && c.deviceIntervals().length == 1));
    }

    @Test
    void traceFilterSendRecvKernelsAreComm() throws Exception {
        for (String name : List.of("hta_trace_filter_sampled_rank0of128.json.gz", "hta_trace_filter_sampled_rank1of128.json.gz")) {
            RankTrace t = read(name);
            assertEquals(128, t.worldSize());
            DeviceIntervals d = t.device();
            long sendRecv = 0;
            for (int i = 0; i < d.size(); i++) {
                if (d.name(i).startsWith("ncclKernel_SendRecv")) {
                    sendRecv++;
                    assertEquals(DeviceKind.COMM, d.kind(i));
                }
            }
            assertEquals(10, sendRecv, name);
            assertEquals(10, count(d, DeviceKind.COMM), name);
        }
    }

    @Test
    void worldSizeOneHasCollectivesWithoutKernels() throws Exception {
        RankTrace t = read("hta_ns_resolution_world1_v100_no_nccl.json.gz");
        assertEquals(1, t.worldSize());
        assertEquals(0, count(t.device(), DeviceKind.COMM));
        // 45 record_param_comms: 25 all-reduce, 10 broadcast, 10 wait.
        assertEquals(35, t.collectives().size());
        assertEquals(25, t.collectives().stream().filter(c -> c.type() == CollectiveType.ALL_REDUCE).count());
        assertTrue(t.collectives().stream().allMatch(c -> c.deviceIntervals().length == 0));
        assertTrue(t.collectives().stream().allMatch(c -> c.group() != null && "0".equals(c.group().name())),
                "older Process Group ID");
        assertEquals(5, t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count());
    }

    @Test
    void cpuOnlyTraceHasNoDeviceWork() throws Exception {
        RankTrace t = read("hta_cpu_only_gloo_rank34of300.json.gz");
        assertEquals(34, t.rank());
        assertEquals(300, t.worldSize());
        assertFalse(t.hasDeviceActivity());
        assertTrue(t.hostOpsPresent());
        assertEquals(11, t.groups().size());
        assertEquals(1, t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count());
    }

    @Test
    void rocmTrace() throws Exception {
        RankTrace t = read("hta_amd_mi250_rocm6.2_minitoy_no_comm.json.gz");
        assertEquals(RankSource.DEFAULT, t.rankSource());
        DeviceIntervals d = t.device();
        assertEquals(14, count(d, DeviceKind.COMPUTE));
        assertEquals(2, count(d, DeviceKind.MEMCPY));
        assertEquals(0, count(d, DeviceKind.COMM));
        // ProfilerStep#1 is also a gpu_user_annotation: a mark, not a second step span.
        assertEquals(2, t.hostSpans().stream().filter(s -> s.kind() == HostSpanKind.STEP).count());
    }

    @Test
    void backwardThreadHandmade() throws Exception {
        RankTrace t = read("hta_call_stack_backward_thread_handmade.json");
        assertEquals(RankSource.TRACE, t.rankSource());
        assertEquals(1, t.device().size());
        assertEquals(45_000, t.device().duration(0));
        assertEquals(24922, t.device().launchThread(0));
        assertTrue(t.hostSpans().stream().anyMatch(s -> s.kind() == HostSpanKind.BACKWARD && s.threadId() == 24922));
    }

    @Test
    void largeIntegerHandmade() throws Exception {
        RankTrace t = read("hta_large_integer_comms_id_handmade.json.gz");
        assertEquals(1, t.device().size());
        assertEquals(-1, t.lanes().get(0).device(), "kernel without args: unknown lane");
        assertEquals(DeviceKind.COMM, t.device().kind(0));
    }
}
