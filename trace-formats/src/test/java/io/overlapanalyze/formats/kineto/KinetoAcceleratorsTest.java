package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Kineto device work of accelerators other than CUDA: classified by what each event is. */
class KinetoAcceleratorsTest {
    @TempDir
    Path dir;

    private final KernelClassifier classifier = new KernelClassifier();

    @Test
    void mtiaEventsByName() {
        String cat = "mtia_ccp_events";
        assertTrue(KernelClassifier.isDeviceCategory(cat));
        assertEquals(DeviceKind.MEMCPY, classifier.kindOf(cat, "dma_request"));
        assertEquals(DeviceKind.SYNC, classifier.kindOf(cat, "event_record"));
        assertEquals(DeviceKind.SYNC, classifier.kindOf(cat, "event_wait"));
        assertEquals(DeviceKind.COMPUTE, classifier.kindOf(cat, "pe_exe"));
        assertEquals(DeviceKind.COMPUTE, classifier.kindOf(cat, "merge"));
        assertEquals(DeviceKind.COMPUTE, classifier.kindOf(cat, "remote"));
        assertEquals(DeviceKind.COMM, classifier.kindOf(cat, "hccl_all_reduce"), "communication by name, as CUDA kernels");
        assertTrue(KernelClassifier.isRuntimeCategory("mtia_runtime"));
    }

    @Test
    void runtimeCategoriesOfOtherAccelerators() {
        for (String cat : List.of("cuda_runtime", "cuda_driver", "Runtime", "mtia_runtime", "xpu_runtime", "xpu_driver",
                "privateuse1_runtime", "privateuse1_driver")) {
            assertTrue(KernelClassifier.isRuntimeCategory(cat), cat);
        }
        for (String cat : List.of("cpu_op", "user_annotation", "kernel", "mtia_ccp_events")) {
            assertFalse(KernelClassifier.isRuntimeCategory(cat), cat);
        }
        assertNull(classifier.kindOf("xpu_runtime", "urEnqueueKernelLaunch"), "a launch is not device work");
    }

    private RankTrace read(String events) throws Exception {
        Path f = dir.resolve("t.json");
        Files.writeString(f, "{\"traceEvents\":[" + events + "]}", StandardCharsets.UTF_8);
        List<RankTrace> ranks = new KinetoReader().read(f);
        assertEquals(1, ranks.size());
        assertEquals(KinetoParity.jackson(f), KinetoParity.dump(ranks.get(0)), "both reader paths");
        return ranks.get(0);
    }

    @Test
    void anXpuTraceLinksItsKernelsToXpuRuntimeLaunches() throws Exception {
        RankTrace t = read("""
                {"ph":"X","cat":"xpu_runtime","name":"urEnqueueKernelLaunch","pid":9,"tid":9,"ts":10,"dur":3,"args":{"correlation":5,"External id":1}},
                {"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":1,"ts":20,"dur":30,"args":{"correlation":5,"External id":1,"device":0,"stream":1}},
                {"ph":"X","cat":"gpu_memcpy","name":"Memcpy M2D","pid":0,"tid":1,"ts":60,"dur":4,"args":{"device":0,"stream":1}}
                """);
        assertEquals(2, t.device().size());
        assertEquals(DeviceKind.COMPUTE, t.device().kind(0));
        assertEquals(10_000, t.device().launchNs(0), "linked by correlation to its xpu_runtime launch");
        assertEquals(9, t.device().launchThread(0));
        assertEquals(DeviceKind.MEMCPY, t.device().kind(1));
        assertTrue(t.hostOpsPresent());
    }

    @Test
    void launchCorrelatedEventsOfAnUnknownCategoryAreNamedNotDropped() throws Exception {
        RankTrace t = read("""
                {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":9,"tid":9,"ts":10,"dur":3,"args":{"correlation":5}},
                {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":5,"device":0,"stream":7}},
                {"ph":"X","cat":"npu_thing","name":"op","pid":4,"tid":1,"ts":20,"dur":30,"args":{"correlation":6}},
                {"ph":"X","cat":"npu_thing","name":"op","pid":4,"tid":1,"ts":60,"dur":30,"args":{"correlation":7}},
                {"ph":"X","cat":"python_function","name":"f","pid":9,"tid":9,"ts":1,"dur":1,"args":{"correlation":8}},
                {"ph":"X","cat":"npu_other","name":"no correlation","pid":4,"tid":1,"ts":60,"dur":30,"args":{}}
                """);
        assertEquals(1, t.device().size());
        assertEquals(List.of("events of an unknown category with launch correlation ids not analysed (device work of"
                + " an accelerator this reader does not know?): 2 times (first: category \"npu_thing\")"), t.warnings());
    }
}
