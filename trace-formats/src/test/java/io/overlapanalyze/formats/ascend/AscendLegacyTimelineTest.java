package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.ReferenceOverlap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bare 2024 torch_npu timeline: one file, one device, whatever its pids say.
 *
 * <p>The fixture {@code src/test/resources/ascend/msprof-analyze-advisor-2024/trace_view.json} is a
 * hand-made excerpt of msprof-analyze's advisor unit-test timeline (repository Ascend mstt, stored
 * copy {@code xiaobingling93-pixel/Ascend-mstt} at commit {@code 535cf3db7106c9ebcc325338f5a43410d2c7484a},
 * path {@code profiler/test/ut/advisor/timeline_advice/trace_view.json}, 635,433 characters; it is not
 * in the shared traces). Kept as there: the event order and texts, the pids ({@code Python} 437675,
 * {@code CANN} 43767502, {@code Ascend Hardware} 800 with one stream, {@code Overlap Analysis}
 * 4376751100: the OS pid and the sort index written one after the other, not the
 * {@code (pid << 10) | (sort << 5) | device} encoding), their {@code process_sort_index} (0, 2, 8,
 * 11), no rank metadata, {@code cpu_op}s, {@code async_npu} and {@code HostToDevice} flows, and
 * twelve device tasks with their Computing and Free lane events: nine AI Core kernels of
 * {@code "Task Type": "Other"} (Task Ids 279–284, 553–555), a {@code MEMCPY_ASYNC} of that type with
 * no Computing event (440), and the file's two {@code AI_CPU} tasks (551, 552).
 *
 * <p>On the whole file (read page by page with the search tools, not stored here) the same rule
 * gives 272 "Other" kernels of 1,460,700 ns and the two AI CPU tasks of 327,567 ns: 1,788,267 ns of
 * compute, the lane's Computing exactly (its 1.788 ms); the two MEMCPY_ASYNC tasks (440, 460) are the
 * only hardware tasks without a Computing event.
 */
class AscendLegacyTimelineTest {
    static final Path ADVISOR_2024 = Path.of("src/test/resources/ascend/msprof-analyze-advisor-2024/trace_view.json");

    @TempDir
    Path tmp;

    /**
     * The MEMCPY_ASYNC runtime task is a copy, not compute (the lane has no Computing event for it).
     * Compute by hand, dur µs → ns half-up: Other 1.35 + 1.2695 + 2.52 + 1.26 + 4.21 + 1.34 + 1.4 +
     * 1.34 + 1.42 → 1350 + 1270 + 2520 + 1260 + 4210 + 1340 + 1400 + 1340 + 1420 = 16,110 ns; AI_CPU
     * 188.14802169799805 + 139.4186019897461 → 188,148 + 139,419 = 327,567 ns; on one stream, no
     * overlaps: 343,677 ns. The lane's Computing events have the same starts and durations written
     * with fewer digits (1.2695, 188.148, 139.4185 → 1270, 188,148, 139,419 ns): 343,677 ns too.
     * Counting the AI_CPU tasks only would give 327,567 (the "0.328 ms" such a reading reported).
     */
    @Test
    void oneRankWhoseComputeIsTheLanesComputing() throws Exception {
        List<RankTrace> ranks = new AscendReader().read(ADVISOR_2024);
        assertEquals(1, ranks.size(), "one file without rank metadata is one rank");
        RankTrace t = ranks.get(0);
        assertEquals(0, t.rank());
        assertEquals(RankSource.DEFAULT, t.rankSource());
        assertEquals(12, t.device().size());
        assertEquals(1, t.lanes().size(), "one stream");
        assertEquals(3, t.lanes().get(0).stream());
        long compute = 0;
        for (int i = 0; i < t.device().size(); i++) {
            boolean copy = "MEMCPY_ASYNC".equals(t.device().name(i));
            assertEquals(copy ? DeviceKind.MEMCPY : DeviceKind.COMPUTE, t.device().kind(i), t.device().name(i));
            compute += copy ? 0 : t.device().duration(i);
        }
        assertEquals(343_677L, compute);
        assertEquals(1, t.referenceOverlap().size(), "the lane belongs to the same rank");
        ReferenceOverlap lane = t.referenceOverlap().get(0);
        assertEquals("all", lane.step());
        assertEquals(343_677L, lane.computingNs());
        assertEquals(0L, lane.communicationNs());
        // Free events kept: 11.71 + 31.51 + 0.11 + 0.11 + 4.0 + 4.5395 + 77.1695 + 14.72 + 11.23 + 0.16 + 0.18 µs
        assertEquals(11_710L + 31_510 + 110 + 110 + 4_000 + 4_540 + 77_170 + 14_720 + 11_230 + 160 + 180, lane.freeNs());
        // Launch of task 279: its async_npu flow start (the framework op), not the CANN call.
        assertEquals(1_704_161_511_422_855_116L, t.device().launchNs(0));
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("\"Other\" counted as compute")), t.warnings().toString());
    }

    /** In a file that types its AI Core tasks, "Other" means what it says. */
    @Test
    void otherStaysOtherWhereAiCoreTasksAreTyped() throws Exception {
        long hw = 3170820512L;
        String json = "[\n"
                + "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + hw + ",\"tid\":0,\"args\":{\"name\":\"Ascend Hardware\"}},\n"
                + "{\"name\":\"mm\",\"pid\":" + hw + ",\"tid\":2,\"ts\":\"100.000\",\"dur\":2,\"args\":{\"Task Type\":\"AI_CORE\"},\"ph\":\"X\"},\n"
                + "{\"name\":\"x\",\"pid\":" + hw + ",\"tid\":2,\"ts\":\"103.000\",\"dur\":2,\"args\":{\"Task Type\":\"Other\"},\"ph\":\"X\"}\n]";
        RankTrace t = new AscendReader().read(Files.writeString(tmp.resolve("trace_view.json"), json)).get(0);
        assertEquals(DeviceKind.COMPUTE, t.device().kind(0));
        assertEquals(DeviceKind.OTHER, t.device().kind(1));
    }

    /** Unresolved types: kernels (op names, "MemSet" ones too) are compute; runtime tasks go by their name. */
    @Test
    void unresolvedTaskTypesByName() {
        assertEquals(DeviceKind.COMPUTE, TaskKinds.ofTaskType("Other", "trans_TransData_3_MemSet", true));
        assertEquals(DeviceKind.COMPUTE, TaskKinds.ofTaskType("Other", "Conv2D1", true));
        assertEquals(DeviceKind.MEMCPY, TaskKinds.ofTaskType("Other", "MEMCPY_ASYNC", true));
        assertEquals(DeviceKind.SYNC, TaskKinds.ofTaskType("Other", "EVENT_RECORD", true));
        assertEquals(DeviceKind.OTHER, TaskKinds.ofTaskType("Other", "KERNEL_LAUNCH_PLACEHOLDER", true));
        assertEquals(DeviceKind.OTHER, TaskKinds.ofTaskType("Other", "Conv2D1", false), "types resolved: Other is other");
        assertEquals(DeviceKind.COMPUTE, TaskKinds.ofTaskType("AI_CPU", "aclnnCast_CastAiCpu_Cast", true));
    }

    /** The pid encoding counts only where the file's own sort index agrees with it. */
    @Test
    void devicesOfProcesses() {
        Map<String, String> names = Map.of("800", "Ascend Hardware", "4376751100", "Overlap Analysis",
                "3170820512", "Ascend Hardware", "3170822561", "Ascend Hardware");
        // 2024: 800 has no OS pid above the low bits; 4376751100's bits say sort index 31, its metadata 11.
        ProcessDevices old = new ProcessDevices(List.of("800", "4376751100"), names, Map.of(),
                Map.of("800", "8", "4376751100", "11"));
        assertEquals(old.of("800"), old.of("4376751100"));
        assertEquals(0, old.of("800"), "the lowest pid & 31 (800 & 31 = 0, 4376751100 & 31 = 28)");
        assertTrue(old.warnings().isEmpty());
        // Without sort indices the encoding-looking pid names its device; the other joins it.
        ProcessDevices noSort = new ProcessDevices(List.of("800", "4376751100"), names, Map.of(), Map.of());
        assertEquals(28, noSort.of("800"));
        assertEquals(28, noSort.of("4376751100"));
        // 2025: (3096504 << 10) | (13 << 5) | 0 with sort index 13; device 1: 3170822561 = (3096506 << 10) | (13 << 5) | 1.
        ProcessDevices encoded = new ProcessDevices(List.of("3170820512", "3170822561"), names, Map.of(),
                Map.of("3170820512", "13", "3170822561", "13"));
        assertEquals(0, encoded.of("3170820512"));
        assertEquals(1, encoded.of("3170822561"));
        // Labels "NPU <n>" win; a process naming no device in a two-device file: the lowest, with a warning.
        ProcessDevices labelled = new ProcessDevices(List.of("800", "801", "4376751100"), names,
                Map.of("800", "NPU 4", "801", "NPU 5"), Map.of("4376751100", "11"));
        assertEquals(4, labelled.of("800"));
        assertEquals(5, labelled.of("801"));
        assertEquals(4, labelled.of("4376751100"));
        assertEquals(1, labelled.warnings().size());
        assertTrue(labelled.warnings().get(0).contains("Overlap Analysis"), labelled.warnings().toString());
        assertEquals(Set.of(), Set.copyOf(encoded.warnings()));
    }
}
