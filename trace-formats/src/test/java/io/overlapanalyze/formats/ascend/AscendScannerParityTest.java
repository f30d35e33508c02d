package io.overlapanalyze.formats.ascend;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Ascend timeline reader's fast path ({@link TimelineReader#readWithScanner}: byte scanner,
 * {@link ByteEventFields}, parallel chunks) against its reference, the Jackson path
 * ({@link TimelineReader#readWithJackson}), on every Ascend input there is: the shared real traces,
 * the synthetic scenarios, and hand-written edge cases. For each, the fast path (on one thread, and
 * in parallel chunks small enough to cut even a small file) either gives exactly the Jackson path's
 * model (every field of every {@link RankTrace}, see {@link #dump}) or gives up with
 * {@link Unsupported}; and the public {@link TimelineReader#read} always gives the Jackson path's
 * model or error. Each case also says whether the fast path must take the file on (well-formed
 * files: so the comparison is not vacuous) or must leave it to the Jackson path (damage,
 * truncation: so errors and warnings stay that path's).
 */
class AscendScannerParityTest {
    @TempDir
    Path tmp;

    /** What the fast path must do with a file. */
    private enum Expect { TAKEN, LEFT_TO_JACKSON, EITHER }

    // ------------------------------------------------------------------ inputs

    /**
     * The shared torch_npu captures as they are (their metadata comes after the first events of
     * its process, so they are read in two passes), and rewritten with every metadata event first
     * (one pass): real names, args and flows.
     */
    @Test
    void sharedRealTraces() throws Exception {
        Path root = Path.of(System.getProperty("overlap.sharedTraces", "../shared/traces"), "ascend");
        Assumptions.assumeTrue(Files.isDirectory(root), "shared Ascend traces not found at "
                + root.toAbsolutePath().normalize() + ": skipping (CI has them; a clone may not)");
        List<Path> timelines;
        try (Stream<Path> s = Files.walk(root)) {
            timelines = s.filter(p -> p.getFileName().toString().equals("trace_view.json")
                    || p.getFileName().toString().matches("msprof_.*\\.json")).sorted().toList();
        }
        Assumptions.assumeTrue(!timelines.isEmpty(), "no Ascend JSON timeline under " + root + ": skipping");
        for (Path t : timelines) {
            check(List.of(t), Expect.TAKEN); // in two passes
            check(List.of(metadataFirst(t)), Expect.TAKEN); // in one
        }
    }

    /** A copy of a timeline with its metadata events first, other events in their order, each as its exact text. */
    private Path metadataFirst(Path timeline) throws IOException {
        byte[] text = Files.readAllBytes(timeline);
        ObjectMapper json = new ObjectMapper();
        List<String> meta = new ArrayList<>();
        List<String> other = new ArrayList<>();
        try (JsonParser p = json.getFactory().createParser(text)) {
            assertEquals(JsonToken.START_ARRAY, p.nextToken());
            while (p.nextToken() == JsonToken.START_OBJECT) {
                int from = (int) p.currentTokenLocation().getByteOffset();
                p.skipChildren();
                int to = (int) p.currentLocation().getByteOffset();
                String event = new String(text, from, to - from, StandardCharsets.UTF_8);
                ("M".equals(json.readTree(event).path("ph").asText()) ? meta : other).add(event);
            }
        }
        meta.addAll(other);
        return write("metadata-first-" + timeline.getParent().getParent().getFileName() + ".json",
                ("[" + String.join(",\n", meta) + "]").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The 2024 layout (msprof-analyze's advisor unit-test timeline, see {@link AscendLegacyTimelineTest}):
     * plain pids, {@code process_sort_index} metadata that decides the device, "Other" task types; as
     * written (two passes: the Python process's metadata follows its events) and metadata first (one).
     */
    @Test
    void legacyAdvisorTimeline() throws Exception {
        // The fixture belongs to the reader's own tests (trace-formats).
        Path t = Path.of(System.getProperty("overlap.projectRoot", ".."),
                "trace-formats/src/test/resources/ascend/msprof-analyze-advisor-2024/trace_view.json");
        check(List.of(t), Expect.TAKEN);
        check(List.of(metadataFirst(t)), Expect.TAKEN);
    }

    /** Every built-in scenario as torch_npu's trace_view.json (what {@code overlap-analyze synth --format ascend} writes). */
    @Test
    void syntheticScenarios() throws Exception {
        for (String name : BuiltinScenarios.names()) {
            check(List.of(write(name + ".json", synth(name))), Expect.TAKEN);
        }
    }

    /** The capture directory as the CLI's synth writes it, and a gzip copy of its timeline (read on one thread). */
    @Test
    void synthCaptureDirectoryAndGzip() throws Exception {
        Scenario s = BuiltinScenarios.get("seed-4ms");
        Path capture = tmp.resolve(AscendScenarioWriter.directoryName(s));
        AscendScenarioWriter.write(s, capture);
        Path timeline = capture.resolve("ASCEND_PROFILER_OUTPUT/trace_view.json");
        check(List.of(timeline), Expect.TAKEN);
        Path gz = tmp.resolve("trace_view.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(timeline));
        }
        check(List.of(gz), Expect.TAKEN);
    }

    /**
     * Cut at 60 places spread over the file, and just after each of the last structural characters:
     * never taken by the fast path; the Jackson path gives its partial trace or its error.
     */
    @Test
    void truncatedFiles() throws Exception {
        byte[] full = synth("seed-1ms");
        Path f = tmp.resolve("cut.json");
        List<Integer> cuts = new ArrayList<>();
        for (int k = 1; k < 60; k++) {
            cuts.add((int) ((long) full.length * k / 60));
        }
        int end = full.length - 1;
        while (Character.isWhitespace(full[end])) {
            end--;
        }
        for (int n = end; n > end - 400; n--) {
            if ("{}[],:\"".indexOf(full[n - 1]) >= 0) {
                cuts.add(n);
            }
        }
        for (int n : cuts) {
            Files.write(f, Arrays.copyOf(full, n));
            check(List.of(f), Expect.LEFT_TO_JACKSON);
        }
    }

    @Test
    void escapesUnicodeAndControlCharacters() throws Exception {
        String events = header() + ",\n"
                + x(HW, 2, "a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00", "\"1000.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(HW, 2, "名字 ✓ 😀", "\"1002.000\"", "1", "{\"Task Type\":\"AI_\\u0043ORE\"}") + ",\n"
                + x(HW, 2, "raw\ttab", "\"1004.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(HW, 2, "x".repeat(300) + "é".repeat(300), "\"1006.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(HW, 2, "\\u0000nul", "\"1008.000\"", "1", "{\"Task Type\":\"AI_CORE\"}");
        check(array(events), Expect.TAKEN);
        // metadata names with escapes still name the lanes
        String escapedMeta = "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + HW + ",\"tid\":0,\"args\":{\"name\":\"Ascend\\u0020Hardware\"}},\n"
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + HW + ",\"tid\":2,\"args\":{\"name\":\"Stream\\t2\"}},\n"
                + x(HW, 2, "k", "\"1.000\"", "1", "{\"Task Type\":\"AI_CORE\"}");
        check(array(escapedMeta), Expect.TAKEN);
        // a BOM before the array
        Path bom = tmp.resolve("bom.json");
        byte[] body = ("[" + events + "]").getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[body.length + 3];
        withBom[0] = (byte) 0xef;
        withBom[1] = (byte) 0xbb;
        withBom[2] = (byte) 0xbf;
        System.arraycopy(body, 0, withBom, 3, body.length);
        Files.write(bom, withBom);
        check(List.of(bom), Expect.TAKEN);
    }

    /** Nulls read as absent at the top level (an earlier repeated key stays) but clear an args field. */
    @Test
    void nullFieldsAndRepeatedKeys() throws Exception {
        String events = header() + ",\n"
                + "{\"name\":\"a\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"1.000\",\"dur\":null,\"ph\":\"X\",\"args\":null},\n"
                + "{\"name\":\"b\",\"name\":null,\"pid\":" + HW + ",\"tid\":2,\"ts\":\"2.000\",\"dur\":1,\"ph\":\"X\","
                + "\"args\":{\"Task Type\":\"AI_CORE\",\"Task Type\":null}},\n"
                + "{\"name\":null,\"pid\":" + HW + ",\"tid\":2,\"ts\":\"3.000\",\"dur\":1,\"ph\":\"X\"},\n"
                + "{\"name\":\"c\",\"pid\":null,\"tid\":2,\"ts\":\"4.000\",\"dur\":1,\"ph\":\"X\"},\n"
                + "{\"name\":\"d\",\"pid\":" + HW + ",\"tid\":null,\"ts\":\"5.000\",\"dur\":1,\"ph\":\"X\"},\n"
                + "{\"name\":\"e\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"6.000\",\"dur\":1,\"ph\":null},\n"
                + "{\"name\":\"f\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"7.000\",\"dur\":1,\"ph\":\"X\",\"ph\":null,"
                + "\"args\":{\"Task Type\":\"AI_CPU\"},\"args\":{\"Model Id\":1}},\n"
                + "{},\n"
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":77,\"tid\":9,\"args\":{\"name\":null}}";
        check(array(events), Expect.TAKEN);
    }

    /** Numbers as strings and strings as numbers, booleans, negative and odd numbers: as text, as Jackson gives it. */
    @Test
    void numbersAsStringsAndOtherScalars() throws Exception {
        String events = "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":\"" + HW + "\",\"tid\":\"0\",\"args\":{\"name\":\"Ascend Hardware\"}},\n"
                + "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":" + HW + ",\"args\":{\"labels\":\"NPU 3\"}},\n"
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + HW + ",\"tid\":-7,\"args\":{\"name\":12}},\n"
                + "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":true,\"args\":{\"name\":false}},\n"
                + x(HW, 2, "n1", "1736408883704643.212", "53.7415625", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + x(HW, -7, "n2", "\"1736408883704700.0\"", "\"2\"", "{\"Task Type\":7}") + ",\n"
                + x(HW, 2, "n3", "0", "0.0005", "{\"Task Type\":true}") + ",\n"
                + x(HW, 2, "n4", "-5.5", "1", null) + ",\n"
                + x(HW, 2, "n5", "\"9.99999\"", "\"0\"", null) + ",\n"
                + x(HW, 2, "n6", "4611686018427387.9035", "1", null);
        check(array(events), Expect.TAKEN);
        // an event name that is a number or a boolean
        String odd = header() + ",\n{\"name\":17,\"pid\":" + HW + ",\"tid\":2,\"ts\":1,\"dur\":1,\"ph\":\"X\"},\n"
                + "{\"name\":true,\"pid\":" + HW + ",\"tid\":2,\"ts\":2,\"dur\":1,\"ph\":\"X\"}";
        check(array(odd), Expect.TAKEN);
    }

    /** Nested args: only the top-level keys count; containers anywhere are skipped. */
    @Test
    void nestedArgsAndContainers() throws Exception {
        String events = header() + ",\n"
                + "{\"name\":\"a\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"1.000\",\"dur\":1,\"ph\":\"X\","
                + "\"args\":{\"inner\":{\"Task Type\":\"AI_CPU\",\"name\":\"no\"},\"list\":[1,{\"a\":[[],{}]},\"s\"],"
                + "\"Task Type\":\"AI_CORE\",\"count\":{\"n\":1},\"stream id\":[4]}},\n"
                + "{\"name\":{\"x\":1},\"pid\":" + HW + ",\"tid\":2,\"ts\":\"2.000\",\"dur\":1,\"ph\":\"X\"},\n"
                + "{\"name\":\"b\",\"pid\":[" + HW + "],\"tid\":2,\"ts\":\"3.000\",\"dur\":1,\"ph\":\"X\"},\n"
                + "{\"name\":\"c\",\"pid\":1,\"tid\":2,\"ts\":{\"v\":1},\"dur\":[1],\"ph\":\"X\",\"args\":[{\"Task Type\":\"x\"}]},\n"
                + "{\"name\":\"d\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"5.000\",\"dur\":1,\"ph\":\"X\",\"args\":\"AI_CORE\"},\n"
                + "{\"name\":\"e\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"6.000\",\"dur\":1,\"ph\":\"X\",\"args\":{}},\n"
                + "{\"name\":\"f\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"7.000\",\"dur\":1,\"ph\":\"X\",\"deep\":"
                + "[".repeat(50) + "]".repeat(50) + "}";
        check(array(events), Expect.TAKEN);
    }

    /**
     * HCCL (collectives, plane tasks naming the communication stream), the Overlap Analysis lane,
     * host ops, both kinds of flows (numeric and string ids, 19 and 20 digits) and a second device.
     */
    @Test
    void everyKindOfEvent() throws Exception {
        long hccl = 3170820576L;
        long ov = 3170820544L;
        long hw1 = 3170820513L;
        String events = header() + ",\n"
                + meta(HOST, "Python", HOST, "Thread 1", "CPU") + ",\n"
                + meta(hccl, "HCCL", 0, "Group 7b2c9a0d11 Communication", "NPU") + ",\n"
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + hccl + ",\"tid\":1,\"args\":{\"name\":\"Plane 0\"}},\n"
                + meta(ov, "Overlap Analysis", 1, "Computing", "NPU") + ",\n"
                + "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + ov + ",\"tid\":2,\"args\":{\"name\":\"Communication(Not Overlapped)\"}},\n"
                + meta(hw1, "Ascend Hardware", 5, "Stream 5", "NPU 1") + ",\n"
                + x(HOST, HOST, "ProfilerStep#3", "\"900.000\"", "300", null) + ",\n"
                + x(HOST, HOST, "c10d::allreduce_", "\"901.000\"", "5", null) + ",\n"
                + x(HOST, HOST, "aten::mm", "\"902.000\"", "5", null) + ",\n"
                + flow("s", HOST, HOST, "\"903.000\"", "async_npu", "1736408883704643212") + ",\n"
                + flow("s", HOST, HOST, "\"904.000\"", "HostToDevice", "\"40004068119343529983\"") + ",\n"
                + flow("s", HOST, HOST, "\"905.000\"", "async_npu", "\"x-7\"") + ",\n"
                + x(HW, 2, "mm", "\"1000.000\"", "10", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + flow("f", HW, 2, "\"1000.000\"", "async_npu", "1736408883704643212") + ",\n"
                + x(HW, 4, "copy", "\"1011.000\"", "2", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + flow("f", HW, 4, "\"1011.000\"", "HostToDevice", "\"40004068119343529983\"") + ",\n"
                + x(hccl, 0, "hcom_allReduce__586_3_1", "\"1020.000\"", "30.5", "{\"data_type\":\"FP16\",\"count\":\"1024\"}") + ",\n"
                + flow("f", hccl, 0, "\"1020.000\"", "async_npu", "\"x-7\"") + ",\n"
                + x(hccl, 1, "Memcpy", "\"1021.000\"", "3", "{\"stream id\":4}") + ",\n"
                + x(ov, 1, "Computing", "\"1000.000\"", "20", null) + ",\n"
                + x(ov, 2, "Communication(Not Overlapped)", "\"1020.000\"", "10", null) + ",\n"
                + x(hw1, 5, "other", "\"1030.000\"", "1", "{\"Task Type\":\"EVENT_WAIT_SQE\"}") + ",\n"
                + "{\"name\":\"counter\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"1.0\",\"ph\":\"C\",\"args\":{\"v\":1}}";
        check(array(events), Expect.TAKEN);
    }

    /**
     * Metadata after events: for a process none of whose events came yet it is fine in one pass;
     * for one whose events were taken the file needs two passes, which both paths then make.
     */
    @Test
    void metadataAfterEvents() throws Exception {
        String lateButUnused = header() + ",\n" + x(HW, 2, "a", "\"1.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + ",\n"
                + meta(3170820576L, "HCCL", 0, "Group 0 Communication", "NPU") + ",\n"
                + x(3170820576L, 0, "hcom_broadcast__483_0", "\"2.000\"", "1", null);
        check(array(lateButUnused), Expect.TAKEN);
        String lateForUsed = x(HW, 2, "a", "\"1.000\"", "1", "{\"Task Type\":\"AI_CORE\"}") + ",\n" + header();
        check(array(lateForUsed), Expect.TAKEN); // in two passes
        // two parts (msprof slices): the second part's metadata names a process the first part used
        Path p1 = write("slice0.json", ("[" + x(HW, 2, "a", "\"1.000\"", "1", null) + "]").getBytes(StandardCharsets.UTF_8));
        Path p2 = write("slice1.json", ("[" + header() + "]").getBytes(StandardCharsets.UTF_8));
        check(List.of(p1, p2), Expect.TAKEN); // in two passes
        Path q1 = write("sliceA.json", ("[" + header() + "]").getBytes(StandardCharsets.UTF_8));
        Path q2 = write("sliceB.json", ("[" + x(HW, 2, "a", "\"1.000\"", "1", null) + "]").getBytes(StandardCharsets.UTF_8));
        check(List.of(q1, q2), Expect.TAKEN);
    }

    /** What Jackson refuses or words, and what the scanner does not take on: all left to the Jackson path. */
    @Test
    void damagedAndUnusualJson() throws Exception {
        String ok = header() + ",\n" + x(HW, 2, "a", "\"1.000\"", "1", "{\"Task Type\":\"AI_CORE\"}");
        String okb = "[" + ok + ",\n";
        List<String> leftToJackson = List.of(
                "[" + ok + ",]",                                          // a trailing comma (Jackson allows it)
                okb + x(HW, 2, "b", "NaN", "1", null) + "]",              // NaN (Jackson allows it)
                okb + x(HW, 2, "b", "1e3", "1", null) + "]",              // an exponent (Jackson reads it)
                okb + x(HW, 2, "b", "01", "1", null) + "]",               // a leading zero (invalid)
                okb + x(HW, 2, "b\\q", "\"2.0\"", "1", null) + "]",       // an escape JSON does not define (invalid here)
                okb + x(HW, 2, "b", "\"2.0\"", "1", "{\"k\\u0065y\":1}") + "]", // an escaped field name
                okb + "{\"name\":\"b\",\"pid\":" + HW + ",\"tid\":\"s2\",\"ts\":\"2.0\",\"dur\":1,\"ph\":\"X\"}]", // a tid that is no integer
                okb + "1]",                                               // an event that is no object
                okb + "null]",
                okb + "{\"name\":\"b\" \"pid\":1}]",                      // invalid JSON
                "{\"traceEvents\":[" + ok + "]}",                          // not an array
                "[]",
                "[\n]",
                "",
                "   ",
                "[{\"ph\":\"X\"}]");                                        // no Ascend lanes
        for (String text : leftToJackson) {
            check(List.of(write("damaged.json", text.getBytes(StandardCharsets.UTF_8))), Expect.LEFT_TO_JACKSON);
        }
        // a ts or dur that is no number skips its event with a counted warning (issue 29 item 7): both
        // paths take the file, with the same model and warnings
        for (String text : List.of(okb + x(HW, 2, "b", "\"two\"", "1", null) + "]",
                okb + x(HW, 2, "b", "\" 2.0\"", "1", null) + "]",
                okb + x(HW, 2, "b", "\"2.0\"", "true", null) + "]")) {
            check(List.of(write("unreadable-time.json", text.getBytes(StandardCharsets.UTF_8))), Expect.EITHER);
        }
        // what follows the array is not read, by either path
        for (String text : List.of("[" + ok + "] trailing text", "[" + ok + "]\n[1]")) {
            check(List.of(write("after.json", text.getBytes(StandardCharsets.UTF_8))), Expect.TAKEN);
        }
        // invalid UTF-8 in a name, in a value the reader skips, and an overlong encoding
        for (byte[] bad : List.of(new byte[] {(byte) 0xff}, new byte[] {(byte) 0xc0, (byte) 0xaf},
                new byte[] {(byte) 0xe2, (byte) 0x28, (byte) 0xa1})) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(("[" + ok + ",\n{\"name\":\"x").getBytes(StandardCharsets.UTF_8));
            b.write(bad);
            b.write(("\",\"pid\":" + HW + ",\"tid\":2,\"ts\":\"3.0\",\"dur\":1,\"ph\":\"X\",\"args\":{\"skip\":\"").getBytes(StandardCharsets.UTF_8));
            b.write(bad);
            b.write("\"}}]".getBytes(StandardCharsets.UTF_8));
            check(List.of(write("utf8.json", b.toByteArray())), Expect.LEFT_TO_JACKSON);
        }
    }

    /**
     * Strings that look like the start of an event ({@code }, {"}) make the parallel scan guess
     * a cut inside an event: it must read the file again on one thread, with the same model.
     */
    @Test
    void eventStartLookalikesInStrings() throws Exception {
        StringBuilder events = new StringBuilder(header());
        for (int i = 0; i < 40; i++) {
            events.append(",\n").append(x(HW, 2, "k}, {\\\"name\\\":\\\"fake" + i + "\\\"}", "\"" + (10 + i) + ".000\"", "1",
                    "{\"Task Type\":\"AI_CORE\",\"nested\":[{\"a\":1},\n{\"name\":\"inner\"}]}"));
        }
        check(array(events.toString()), Expect.TAKEN);
    }

    // ------------------------------------------------------------------ the comparison

    /**
     * Reads {@code parts} with the Jackson path, with the public read, and with the fast path in
     * each mode; asserts that every model or error equals the Jackson path's, and what the fast
     * path did against {@code expect}.
     */
    private void check(List<Path> parts, Expect expect) throws IOException {
        String what = parts.toString();
        String reference = outcome(() -> reader(parts).readWithJackson());
        assertEquals(reference, outcome(() -> reader(parts).read()), what + ": the public read is the Jackson path's");
        long size = Files.size(parts.get(0));
        int[][] modes = {{0, 1}, {(int) Math.max(64, size / 16), 2}, {(int) Math.max(64, size / 3), 3}};
        for (int[] mode : modes) {
            String label = what + (mode[0] == 0 ? " on one thread" : " in chunks of " + mode[0] + " bytes on " + mode[1] + " threads");
            String fast;
            try {
                fast = dump(reader(parts).readWithScanner(mode[0], mode[1]));
            } catch (Unsupported e) {
                assertTrue(expect != Expect.TAKEN, label + ": the fast path gave up on a file it should take on: " + e.getMessage());
                continue;
            }
            assertTrue(expect != Expect.LEFT_TO_JACKSON, label + ": the fast path took a file it must leave to the Jackson path:\n"
                    + reference);
            assertEquals(reference, fast, label + ": the fast path's model is the Jackson path's");
        }
    }

    private interface Read {
        List<RankTrace> read() throws Exception;
    }

    /** The model as text, or the error. */
    private static String outcome(Read read) {
        try {
            return dump(read.read());
        } catch (Unsupported e) {
            throw new AssertionError("Unsupported escaped the reader", e);
        } catch (Exception e) {
            return "error: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private static TimelineReader reader(List<Path> parts) {
        return new TimelineReader(parts, "test-source", d -> new RankInfo(d * 10, io.overlapanalyze.model.RankSource.TRACE),
                io.overlapanalyze.formats.kernels.KernelRules.builtIn(), io.overlapanalyze.formats.input.InputLimits.DEFAULT);
    }

    /** Every field of every trace, device intervals column by column. */
    static String dump(List<RankTrace> traces) {
        StringBuilder sb = new StringBuilder();
        for (RankTrace t : traces) {
            sb.append("trace ").append(t.source()).append(' ').append(t.format()).append(" rank ").append(t.rank())
                    .append(' ').append(t.rankSource()).append(" world ").append(t.worldSize())
                    .append(" hostOpsPresent ").append(t.hostOpsPresent()).append(" truncated ").append(t.truncated()).append('\n');
            t.lanes().forEach(l -> sb.append("  lane ").append(l).append('\n'));
            DeviceIntervals d = t.device();
            for (int i = 0; i < d.size(); i++) {
                sb.append("  device ").append(i).append(": ").append(d.start(i)).append(' ').append(d.end(i))
                        .append(" lane ").append(d.lane(i)).append(' ').append(d.kind(i)).append(" name ")
                        .append(d.name(i)).append(" #").append(d.nameId(i)).append(" launch ").append(d.launchNs(i))
                        .append(" thread ").append(d.launchThread(i)).append(" collective ").append(d.collective(i)).append('\n');
            }
            t.hostSpans().forEach(h -> sb.append("  span ").append(h).append('\n'));
            t.threads().forEach(h -> sb.append("  thread ").append(h).append('\n'));
            for (Collective c : t.collectives()) {
                sb.append("  collective ").append(c.id()).append(' ').append(c.type()).append(' ').append(c.name())
                        .append(' ').append(c.group()).append(" seq ").append(c.sequence()).append(" elements ")
                        .append(c.inElements()).append('/').append(c.outElements()).append(' ').append(c.dtype())
                        .append(" bytes ").append(c.bytes()).append(" enqueue ").append(c.enqueueNs()).append(" thread ")
                        .append(c.threadId()).append(" intervals ").append(Arrays.toString(c.deviceIntervals())).append('\n');
            }
            t.groups().forEach(g -> sb.append("  group ").append(g).append('\n'));
            sb.append("  unmatched launches ").append(Arrays.toString(t.unmatchedLaunchNs())).append('\n');
            t.warnings().forEach(w -> sb.append("  warning ").append(w).append('\n'));
            t.streamWaits().forEach(w -> sb.append("  wait ").append(w).append('\n'));
            t.referenceOverlap().forEach(r -> sb.append("  reference ").append(r).append('\n'));
            MemorySamples m = t.memory();
            for (int i = 0; i < m.size(); i++) {
                sb.append("  memory ").append(m.timeNs(i)).append(' ').append(m.totalAllocated(i)).append(' ')
                        .append(m.device(i)).append('\n');
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ writing inputs

    // pid = (osPid << 10) | (sortIndex << 5) | device
    private static final long HW = 3170820512L;
    private static final long HOST = 3096504L;

    private static byte[] synth(String name) throws IOException {
        Scenario s = BuiltinScenarios.get(name);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AscendScenarioWriter.writeTimeline(s, AscendScenarioWriter.plan(s), out);
        return out.toByteArray();
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(tmp.resolve(name), bytes);
    }

    private List<Path> array(String events) throws IOException {
        return List.of(write("case.json", ("[\n" + events + "\n]\n").getBytes(StandardCharsets.UTF_8)));
    }

    /** The hardware process's metadata (stream 2), first in most cases. */
    private static String header() {
        return meta(HW, "Ascend Hardware", 2, "Stream 2", "NPU");
    }

    private static String meta(long pid, String process, long tid, String thread, String label) {
        List<String> m = new ArrayList<>();
        m.add("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"name\":\"" + process + "\"}}");
        m.add("{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"labels\":\"" + label + "\"}}");
        m.add("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"args\":{\"name\":\"" + thread + "\"}}");
        return String.join(",\n", m);
    }

    private static String x(long pid, long tid, String name, String ts, String dur, String args) {
        return "{\"name\":\"" + name + "\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"ts\":" + ts + ",\"dur\":" + dur
                + (args == null ? "" : ",\"args\":" + args) + ",\"ph\":\"X\"}";
    }

    private static String flow(String ph, long pid, long tid, String ts, String cat, String id) {
        return "{\"name\":\"flow\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"ts\":" + ts + ",\"cat\":\"" + cat + "\",\"id\":"
                + id + ",\"bp\":\"e\",\"ph\":\"" + ph + "\"}";
    }
}
