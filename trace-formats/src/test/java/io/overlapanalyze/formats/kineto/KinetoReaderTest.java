package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KinetoReaderTest {
    private static final long BASE = 1_000_000_000_000L;

    @TempDir
    Path dir;

    private static String resource(String name) throws IOException {
        try (InputStream in = KinetoReaderTest.class.getResourceAsStream("/kineto/" + name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private Path writeGzip(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(content);
        }
        return p;
    }

    private static RankTrace read(Path p) throws Exception {
        List<RankTrace> traces = new KinetoReader().read(p);
        assertEquals(1, traces.size());
        return traces.get(0);
    }

    private static int find(DeviceIntervals d, String namePrefix) {
        for (int i = 0; i < d.size(); i++) {
            if (d.name(i).startsWith(namePrefix)) {
                return i;
            }
        }
        throw new AssertionError("no device interval named " + namePrefix);
    }

    @Test
    void modernTraceWithHeaderAfterEvents() throws Exception {
        Path file = write("modern.json", resource("modern_small.json"));
        RankTrace t = read(file);

        assertEquals(file.toString(), t.source());
        assertEquals(TraceFormat.KINETO, t.format());
        assertEquals(1, t.rank());
        assertEquals(RankSource.TRACE, t.rankSource());
        assertEquals(2, t.worldSize());
        assertFalse(t.truncated());
        assertTrue(t.hostOpsPresent());
        assertEquals(List.of(), t.warnings());
        assertEquals(List.of(new ProcessGroup("0", "default_pg", List.of(0, 1))), t.groups());

        DeviceIntervals d = t.device();
        assertEquals(6, d.size(), "string-pid kernel and gpu_user_annotation are not device work");
        int gemm = find(d, "void gemm_kernel");
        // Base added at the end although it came after the events; the kernel preceded its launch.
        assertEquals(BASE + 1_000_500L, d.start(gemm));
        assertEquals(BASE + 1_010_500L, d.end(gemm));
        assertEquals(BASE + 995_250L, d.launchNs(gemm));
        assertEquals(100L, d.launchThread(gemm));
        assertEquals(DeviceKind.COMPUTE, d.kind(gemm));
        assertEquals(-1, d.collective(gemm));
        assertEquals(DeviceKind.MEMCPY, d.kind(find(d, "Memcpy DtoD")));
        assertEquals(DeviceKind.MEMSET, d.kind(find(d, "Memset")));
        assertEquals(DeviceKind.SYNC, d.kind(find(d, "Stream Wait Event")));

        List<Lane> lanes = t.lanes();
        assertEquals(2, lanes.size());
        assertEquals(new Lane(0, 0, 7, "stream 7"), lanes.get(0));
        assertEquals(new Lane(1, 0, 20, "stream 20"), lanes.get(1));
        assertEquals(0, d.lane(gemm));

        // record_param_comms with args → collective; the "wait" one is not a collective;
        // the driver-launched AllGather kernel without any CPU op becomes its own collective.
        List<Collective> cs = t.collectives();
        assertEquals(2, cs.size());
        Collective ar = cs.get(0);
        int arKernel = find(d, "ncclDevKernel_AllReduce");
        assertEquals(0, ar.id());
        assertEquals(CollectiveType.ALL_REDUCE, ar.type());
        assertEquals("allreduce", ar.name());
        assertEquals(new ProcessGroup("0", "default_pg", List.of(0, 1)), ar.group());
        assertEquals(7, ar.sequence());
        assertEquals(1000, ar.inElements());
        assertEquals(1000, ar.outElements());
        assertEquals("Float", ar.dtype());
        assertEquals(4000, ar.bytes());
        assertEquals(BASE + 1_200_000L, ar.enqueueNs(), "enqueue = the enclosing c10d op's start");
        assertEquals(101L, ar.threadId());
        assertArrayEquals(new int[] {arKernel}, ar.deviceIntervals());
        assertEquals(DeviceKind.COMM, d.kind(arKernel));
        assertEquals(0, d.collective(arKernel));

        Collective ag = cs.get(1);
        int agKernel = find(d, "ncclDevKernel_AllGather");
        assertEquals(1, ag.id());
        assertEquals(CollectiveType.ALL_GATHER, ag.type());
        assertNull(ag.group());
        assertEquals(-1, ag.bytes());
        assertEquals(BASE + 1_500_000L, ag.enqueueNs(), "enqueue = its launch");
        assertEquals(100L, ag.threadId());
        assertArrayEquals(new int[] {agKernel}, ag.deviceIntervals());
        assertEquals(1, d.collective(agKernel));
        assertEquals(DeviceKind.COMM, d.kind(agKernel));

        assertArrayEquals(new long[] {BASE + 1_700_000L}, t.unmatchedLaunchNs(), "cudaMemcpyAsync without device event");

        List<HostSpan> spans = t.hostSpans();
        assertEquals(List.of(HostSpanKind.STEP, HostSpanKind.BACKWARD, HostSpanKind.BACKWARD, HostSpanKind.OPTIMIZER),
                spans.stream().map(HostSpan::kind).toList());
        assertEquals(new HostSpan(HostSpanKind.STEP, "ProfilerStep#3", BASE + 900_000L, BASE + 2_900_000L, 100), spans.get(0));
        assertEquals("Optimizer.step#SGD.step", spans.get(3).name());

        List<HostThread> threads = t.threads();
        assertEquals(2, threads.size(), "device stream names are not host threads");
        assertEquals(new HostThread(100, List.of("thread 100 (pt_main_thread)"), false), threads.get(0));
        assertEquals(101, threads.get(1).threadId());
        assertEquals(2, threads.get(1).names().size());
        assertTrue(threads.get(1).autograd());
    }

    @Test
    void legacyTraceWithoutCollectiveArgs() throws Exception {
        RankTrace t = read(write("legacy.json", resource("legacy_2022_small.json")));
        assertEquals(0, t.rank());
        assertEquals(RankSource.DEFAULT, t.rankSource(), "distributedInfo without rank");
        assertEquals(-1, t.worldSize());
        DeviceIntervals d = t.device();
        assertEquals(3, d.size());
        int nccl = find(d, "ncclKernel_AllReduce");
        assertEquals(DeviceKind.COMM, d.kind(nccl));
        assertEquals(1669783687000130_000L, d.launchNs(nccl));
        assertEquals(DeviceKind.COMPUTE, d.kind(find(d, "void fill_kernel")));
        assertEquals(DeviceKind.SYNC, d.kind(find(d, "Context Sync")));

        List<Collective> cs = t.collectives();
        assertEquals(1, cs.size(), "the arg-less record_param_comms without annotation or kernel is a wait");
        Collective c = cs.get(0);
        assertEquals(CollectiveType.ALL_REDUCE, c.type());
        assertEquals("nccl:all_reduce", c.name());
        assertEquals(1669783687000100_000L, c.enqueueNs());
        assertEquals(-1, c.bytes());
        assertEquals(-1, c.inElements());
        assertArrayEquals(new int[] {nccl}, c.deviceIntervals());
        assertEquals(List.of(HostSpanKind.STEP), t.hostSpans().stream().map(HostSpan::kind).toList());
        assertEquals(-10L, t.hostSpans().get(0).threadId(), "negative tids are kept");
    }

    @Test
    void gzipDetectedByContentEvenWithJsonName() throws Exception {
        Path gz = writeGzip("trace.json", resource("modern_small.json").getBytes(StandardCharsets.UTF_8));
        RankTrace t = read(gz);
        assertEquals(6, t.device().size());
        assertEquals(2, t.collectives().size());
    }

    @Test
    void truncatedJsonKeepsCompleteEvents() throws Exception {
        String text = resource("modern_small.json");
        int cut = text.indexOf("\"name\": \"ncclDevKernel_AllGather");
        Path file = write("cut.json", text.substring(0, cut));
        RankTrace t = read(file);
        assertTrue(t.truncated());
        assertEquals(2, t.device().size(), "gemm and the all-reduce kernel were complete");
        assertEquals(RankSource.DEFAULT, t.rankSource(), "distributedInfo came after the cut");
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains(file.toString()) && w.contains("trace event")),
                t.warnings().toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.startsWith("no time base")), t.warnings().toString());
    }

    @Test
    void truncatedGzipKeepsCompleteEvents() throws Exception {
        StringBuilder sb = new StringBuilder("{\"traceEvents\": [\n");
        for (int i = 0; i < 5000; i++) {
            sb.append("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k").append(i * 7919 % 1000)
                    .append("\", \"pid\": 0, \"tid\": 7, \"ts\": ").append(1000 + i * 10).append(".").append(i % 1000)
                    .append(", \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": ").append(i).append("}},\n");
        }
        sb.append("{}]}");
        Path full = writeGzip("full.json.gz", sb.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(5000, read(full).device().size());
        byte[] gz = Files.readAllBytes(full);
        Path cut = dir.resolve("cut.json.gz");
        Files.write(cut, Arrays.copyOf(gz, gz.length * 2 / 3));
        RankTrace t = read(cut);
        assertTrue(t.truncated());
        assertTrue(t.device().size() > 0 && t.device().size() < 5000, "kept " + t.device().size());
        assertTrue(t.warnings().get(0).contains(cut.toString()), t.warnings().toString());
    }

    @Test
    void badInputsGiveOneLineErrorsNamingTheFile() throws Exception {
        String[][] cases = {
                {"empty.json", ""},
                {"blank.json", "  \n\t "},
                {"text.json", "hello world"},
                {"numbers.json", "[1, 2, 3]"},
                {"noevents.json", "{\"schemaVersion\": 1, \"deviceProperties\": []}"},
                {"eventsnumber.json", "{\"traceEvents\": 5}"},
                {"tsstring.json", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": \"abc\", \"dur\": 1}]}"},
                {"tsobject.json", "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": {\"a\": 1}, \"dur\": 1}]}"},
                {"eventnumber.json", "{\"traceEvents\": [1, 2]}"},
                {"pidarray.json", "{\"traceEvents\": [{\"ph\": \"X\", \"pid\": [1], \"ts\": 1, \"dur\": 1}]}"},
                {"ranktext.json", "{\"distributedInfo\": {\"rank\": \"abc\"}, \"traceEvents\": []}"},
                {"cutbeforeevent.json", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kern"},
                {"cutheader.json", "{\"schemaVersion\": 1, \"devicePro"},
        };
        for (String[] c : cases) {
            Path p = write(c[0], c[1]);
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> new KinetoReader().read(p), c[0]);
            String msg = e.getMessage();
            assertTrue(msg.startsWith(p + ": "), msg);
            assertFalse(msg.contains("\n"), msg);
            assertTrue(msg.endsWith(")"), msg);
        }
        Path gzHeaderOnly = dir.resolve("header.json.gz");
        Files.write(gzHeaderOnly, new byte[] {0x1f, (byte) 0x8b, 8});
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> new KinetoReader().read(gzHeaderOnly));
        assertTrue(e.getMessage().startsWith(gzHeaderOnly + ": "), e.getMessage());
    }

    @Test
    void emptyEventArrayIsAnEmptyTrace() throws Exception {
        RankTrace t = read(write("empty_events.json", "{\"traceEvents\": []}"));
        assertEquals(0, t.device().size());
        assertFalse(t.hostOpsPresent());
        assertFalse(t.hasDeviceActivity());
    }

    @Test
    void robustToControlCharsInvalidUtf8HugeIntegersAndMissingTimes() throws Exception {
        byte[] head = ("{\"traceEvents\": [\n"
                + "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"bad\u0001name ").getBytes(StandardCharsets.UTF_8);
        byte[] invalid = {(byte) 0xff, (byte) 0xfe, 'x'};
        byte[] tail = ("\", \"pid\": 0, \"tid\": 7, \"ts\": 10, \"dur\": 2,"
                + " \"args\": {\"stream\": 7, \"correlation\": 1, \"Comms Id\": 10159970886766084423, \"x\": NaN}},\n"
                + "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"no dur\", \"pid\": 0, \"tid\": 7, \"ts\": 11},\n"
                + "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"no ts either\", \"pid\": 0, \"tid\": 7},\n"
                + "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 5, \"tid\": 1, \"ts\": 1, \"dur\": 1,"
                + " \"args\": {\"Comms Id\": 10159970886766084423, \"Seq\": 18446744073709551615}},\n"
                + "{\"ph\": \"X\", \"cat\": \"some_new_category\", \"name\": \"x\", \"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 1},\n"
                + "{}, {}\n]}").getBytes(StandardCharsets.UTF_8);
        Path p = dir.resolve("messy.json");
        try (OutputStream out = Files.newOutputStream(p)) {
            out.write(head);
            out.write(invalid);
            out.write(tail);
        }
        RankTrace t = read(p);
        assertEquals(1, t.device().size());
        assertTrue(t.device().name(0).startsWith("bad\u0001name "));
        assertFalse(t.truncated());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("2 times")), t.warnings().toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("{}")), t.warnings().toString());
    }

    @Test
    void kernelWithoutArgsGoesOnTheUnknownLane() throws Exception {
        RankTrace t = read(write("noargs.json", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\","
                + " \"pid\": 0, \"tid\": 0, \"ts\": 100, \"dur\": 50}]}"));
        assertEquals(1, t.lanes().size());
        assertEquals(-1, t.lanes().get(0).device());
        assertEquals(-1, t.lanes().get(0).stream());
        assertEquals(DeviceKind.COMM, t.device().kind(0));
        assertEquals(1, t.collectives().size());
        assertEquals(Time.UNKNOWN, t.collectives().get(0).enqueueNs());
        assertEquals(CollectiveType.ALL_REDUCE, t.collectives().get(0).type());
    }

    @Test
    void userCommPatterns() throws Exception {
        Path p = write("custom.json", "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"my_custom_allreduce_kernel\","
                + " \"pid\": 0, \"tid\": 3, \"ts\": 100, \"dur\": 50, \"args\": {\"stream\": 3}}]}");
        assertEquals(DeviceKind.COMPUTE, read(p).device().kind(0));
        RankTrace t = new KinetoReader(new KernelClassifier(List.of("Custom_AllReduce"))).read(p).get(0);
        assertEquals(DeviceKind.COMM, t.device().kind(0));
        assertEquals(CollectiveType.ALL_REDUCE, t.collectives().get(0).type());
    }

    @Test
    void sniffing() {
        assertTrue(KinetoReader.looksLikeKineto(" \n{\"schemaVersion\": 1, \"traceEvents\": [".getBytes(StandardCharsets.UTF_8)));
        assertTrue(KinetoReader.looksLikeKineto("{\"displayTimeUnit\": \"ms\", \"x\": [{\"ph\": \"X\"".getBytes(StandardCharsets.UTF_8)));
        assertFalse(KinetoReader.looksLikeKineto("[{\"ph\": \"X\"}]".getBytes(StandardCharsets.UTF_8)));
        assertFalse(KinetoReader.looksLikeKineto("SQLite format 3".getBytes(StandardCharsets.UTF_8)));
        assertFalse(KinetoReader.looksLikeKineto(new byte[0]));
    }

    @Test
    void dtypeSizes() {
        assertEquals(4, CollectiveArgs.dtypeSize("Float"));
        assertEquals(4, CollectiveArgs.dtypeSize("Int"));
        assertEquals(8, CollectiveArgs.dtypeSize("Long"));
        assertEquals(8, CollectiveArgs.dtypeSize("Double"));
        assertEquals(2, CollectiveArgs.dtypeSize("BFloat16"));
        assertEquals(2, CollectiveArgs.dtypeSize("Half"));
        assertEquals(2, CollectiveArgs.dtypeSize("Short"));
        assertEquals(1, CollectiveArgs.dtypeSize("Bool"));
        assertEquals(1, CollectiveArgs.dtypeSize("Byte"));
        assertEquals(1, CollectiveArgs.dtypeSize("Char"));
        assertEquals(-1, CollectiveArgs.dtypeSize("Mystery"));
        CollectiveArgs gather = new CollectiveArgs("_allgather_base", 25136, 201088, "BFloat16", 8, null, null, null, CollectiveArgs.NONE);
        assertEquals(201088L * 2, gather.bytes());
    }
}
