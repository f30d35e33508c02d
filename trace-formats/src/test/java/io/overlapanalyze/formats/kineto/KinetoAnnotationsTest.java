package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User annotation ranges of a Kineto trace: GPU-side ranges on their stream's lane; without any,
 * host {@code user_annotation} ranges with the device work launched inside them on their thread.
 * Times in the documents are µs from 1000; expected ns are written out by hand.
 */
class KinetoAnnotationsTest {
    @TempDir
    Path dir;

    private RankTrace read(List<String> events) throws Exception {
        Path p = dir.resolve("t" + events.hashCode() + ".json");
        Files.writeString(p, "{\"traceEvents\": [\n" + String.join(",\n", events) + "\n]}", StandardCharsets.UTF_8);
        List<RankTrace> ranks = new KinetoReader().read(p);
        assertEquals(1, ranks.size());
        RankTrace jackson = new KinetoReader().readWithJackson(p);
        assertEquals(KinetoParity.dump(jackson), KinetoParity.dump(ranks.get(0)), "both paths agree");
        return ranks.get(0);
    }

    private static String launch(long tid, double ts, int corr) {
        return "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":" + tid
                + ",\"ts\":" + ts + ",\"dur\":2,\"args\":{\"correlation\":" + corr + "}}";
    }

    private static String kernel(String name, int stream, double ts, double dur, int corr) {
        return "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + name + "\",\"pid\":0,\"tid\":" + stream + ",\"ts\":" + ts
                + ",\"dur\":" + dur + ",\"args\":{\"device\":0,\"stream\":" + stream + ",\"correlation\":" + corr + "}}";
    }

    private static String gpu(String name, int stream, String ts, String dur) {
        return "{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"" + name + "\",\"pid\":0,\"tid\":" + stream
                + ",\"ts\":" + ts + ",\"dur\":" + dur + ",\"args\":{\"device\":0,\"stream\":" + stream + "}}";
    }

    private static String host(String name, long tid, double ts, double dur) {
        return "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"" + name + "\",\"pid\":100,\"tid\":" + tid + ",\"ts\":"
                + ts + ",\"dur\":" + dur + "}";
    }

    private static List<String> kernels() {
        List<String> e = new ArrayList<>();
        e.add(host("ProfilerStep#1", 1, 900, 2000));
        e.add(launch(1, 950, 1));
        e.add(kernel("mlp_gemm", 7, 1000, 10, 1));
        e.add(launch(2, 960, 2));
        e.add(kernel("void deep_ep::intranode::dispatch<8>(int4*)", 30, 1002, 4, 2));
        return e;
    }

    @Test
    void gpuRangesAreKeptOnTheLaneOfTheirStream() throws Exception {
        List<String> e = kernels();
        e.add(gpu("mlp(B)", 7, "999.999", "10.002"));
        e.add(gpu("dispatch(F)", 30, "1001.999", "4.002"));
        e.add(gpu("ProfilerStep#1", 7, "999.999", "0.5"));     // ROCm's step mark: a boundary, not a range
        e.add(gpu("nccl:all_to_all", 30, "1001.999", "4.002")); // the collective's own label
        e.add(gpu("idle(F)", 99, "1000", "5"));                 // a stream that ran nothing
        e.add(host("mlp(B)", 1, 940, 20));                      // host ranges are not used next to GPU ones
        RankTrace t = read(e);
        assertEquals(2, t.annotations().size(), t.annotations().toString());
        Annotation mlp = t.annotations().get(0);
        Annotation dispatch = t.annotations().get(1);
        assertEquals("mlp(B)", mlp.name());
        assertEquals(999_999L, mlp.startNs());
        assertEquals(1_010_001L, mlp.endNs());
        assertEquals("stream 7", t.lanes().get(mlp.lane()).label());
        assertEquals(0, mlp.intervals().length);
        assertEquals("dispatch(F)", dispatch.name());
        assertEquals("stream 30", t.lanes().get(dispatch.lane()).label());
        assertEquals(1_001_999L, dispatch.startNs());
        assertEquals(1_006_001L, dispatch.endNs());
    }

    @Test
    void withoutGpuRangesHostRangesGetTheWorkLaunchedInsideThemOnTheirThread() throws Exception {
        List<String> e = kernels();
        e.add(host("mlp(B)", 1, 940, 20));       // [940, 960] on thread 1: launch at 950 (mlp_gemm)
        e.add(host("dispatch(F)", 2, 955, 10));  // [955, 965] on thread 2: launch at 960 (dispatch)
        e.add(host("other", 2, 940, 15));        // [940, 955] on thread 2: thread 1's launch at 950 is not its
        RankTrace t = read(e);
        assertEquals(2, t.annotations().size(), t.annotations().toString());
        Annotation mlp = t.annotations().get(0);
        Annotation dispatch = t.annotations().get(1);
        assertEquals("mlp(B)", mlp.name());
        assertEquals(-1, mlp.lane());
        assertEquals(1, mlp.threadId());
        assertEquals(940_000L, mlp.startNs());
        assertEquals(960_000L, mlp.endNs());
        assertArrayEquals(new int[] {0}, mlp.intervals());
        assertEquals("mlp_gemm", t.device().name(mlp.intervals()[0]));
        assertEquals("dispatch(F)", dispatch.name());
        assertEquals(1, dispatch.intervals().length);
        assertTrue(t.device().name(dispatch.intervals()[0]).contains("dispatch"),
                Arrays.toString(dispatch.intervals()));
    }

    @Test
    void aTraceWithoutAnnotationsHasNone() throws Exception {
        assertTrue(read(kernels()).annotations().isEmpty());
    }

    @Test
    void aProcessDrivingTwoDevicesGivesEachItsRanges() throws Exception {
        List<String> e = kernels();
        e.add(launch(1, 970, 3));
        e.add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm1\",\"pid\":1,\"tid\":9,\"ts\":1000,\"dur\":3,"
                + "\"args\":{\"device\":1,\"stream\":9,\"correlation\":3}}");
        e.add("{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"dev1\",\"pid\":1,\"tid\":9,\"ts\":1000,\"dur\":3,"
                + "\"args\":{\"device\":1,\"stream\":9}}");
        e.add(gpu("mlp(B)", 7, "1000", "10"));
        Path p = dir.resolve("two.json");
        Files.writeString(p, "{\"traceEvents\": [\n" + String.join(",\n", e) + "\n]}", StandardCharsets.UTF_8);
        List<RankTrace> ranks = new KinetoReader().read(p);
        assertEquals(2, ranks.size());
        for (RankTrace t : ranks) {
            assertEquals(1, t.annotations().size(), t.source());
            Annotation a = t.annotations().get(0);
            boolean device1 = t.lanes().get(a.lane()).device() == 1;
            assertEquals(device1 ? "dev1" : "mlp(B)", a.name(), t.source());
            assertEquals(device1 ? 9 : 7, t.lanes().get(a.lane()).stream(), t.source());
        }
    }

    /**
     * 1,100 ranges that each span all 1,000 kernels: 1,100,000 (range, interval) pairs against the
     * 1,000,000 allowed (16 per interval is only 16,000): the first 1,000 ranges are kept, the last 100
     * left out, and a warning says so. Host ranges first, then the same over GPU-side ranges.
     */
    @Test
    void rangesPastThePairBudgetAreLeftOutWithAWarning() throws Exception {
        for (boolean onGpu : new boolean[] {false, true}) {
            List<String> e = new ArrayList<>();
            for (int k = 0; k < 1_100; k++) {
                e.add(onGpu ? gpu("r" + k, 7, "1500", "3000") : host("r" + k, 1, 900, 1200));
            }
            for (int i = 0; i < 1_000; i++) {
                e.add(launch(1, 1000 + i, i + 1));
                e.add(kernel("gemm", 7, 2000 + i * 2, 1, i + 1));
            }
            RankTrace t = read(e);
            assertEquals(1_000, t.annotations().size(), onGpu ? "GPU ranges" : "host ranges");
            assertEquals("r999", t.annotations().get(999).name());
            String warning = t.warnings().stream().filter(w -> w.startsWith("user annotation ranges overlap")).findFirst()
                    .orElseThrow(() -> new AssertionError("no warning: " + t.warnings()));
            assertTrue(warning.contains("100 of 1100 ranges left out of the annotation overlap, from 'r1000' on"), warning);
            assertTrue(warning.contains("span 1000000 (range, device interval) pairs of the 1000000 allowed"), warning);
            assertTrue(warning.contains("those left out would add 100000)"), warning);
        }
    }

    @Test
    void nestedRangesWithinTheBudgetAreAllKeptWithoutAWarning() throws Exception {
        List<String> e = new ArrayList<>();
        for (int depth = 0; depth < 16; depth++) { // each of the 1,000 kernels lies in all 16
            e.add(host("level" + depth, 1, 900 + depth, 1200 - 2 * depth));
        }
        for (int i = 0; i < 1_000; i++) {
            e.add(launch(1, 1000 + i, i + 1));
            e.add(kernel("gemm", 7, 2000 + i * 2, 1, i + 1));
        }
        RankTrace t = read(e);
        assertEquals(16, t.annotations().size());
        assertTrue(t.warnings().stream().noneMatch(w -> w.startsWith("user annotation ranges overlap")), t.warnings().toString());
    }
}
