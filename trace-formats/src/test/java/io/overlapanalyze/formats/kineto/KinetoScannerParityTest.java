package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.json.ParallelArrayScan;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.formats.input.InputStreams;
import io.overlapanalyze.formats.kineto.KinetoParity.Checker;
import io.overlapanalyze.formats.kineto.KinetoParity.Expect;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.DeviceLayoutWriter;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.Scenario;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static io.overlapanalyze.formats.kineto.KinetoDocs.base;
import static io.overlapanalyze.formats.kineto.KinetoDocs.bytes;
import static io.overlapanalyze.formats.kineto.KinetoDocs.kernelNamed;
import static io.overlapanalyze.formats.kineto.KinetoDocs.utf8;
import static io.overlapanalyze.formats.kineto.KinetoDocs.withEvent;
import static io.overlapanalyze.formats.kineto.KinetoParity.UNSUPPORTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of the Kineto reader's fast path ({@link KinetoReader#readWithScanner}): on every
 * input it gives exactly the model of the Jackson path ({@link KinetoReader#readWithJackson}), or
 * throws {@link io.overlapanalyze.formats.json.Utf8JsonScanner.Unsupported}; and the public
 * {@link KinetoReader#read} (which falls back) always equals the Jackson path, errors included.
 * Checked on the samples, the published traces in shared/traces, generated scenarios and a long
 * list of handcrafted documents, sequentially and with the events array cut into tiny parallel
 * chunks. See {@link KinetoParity} for how results are compared.
 */
class KinetoScannerParityTest {
    @TempDir
    Path dir;


    /** Parallel chunk sizes for the handcrafted documents (a few KB): many chunks each. */
    private static final int[] TINY = {300, 1500};

    // ------------------------------------------------------------------ files

    private static Path projectRoot() {
        String root = System.getProperty("overlap.projectRoot");
        return root != null ? Path.of(root) : Path.of("..");
    }

    private static byte[] decompressed(Path f) throws IOException {
        try (InputStream in = InputStreams.open(f)) {
            return in.readAllBytes();
        }
    }

    /** A plain copy of a (gzip) file, for the parallel scan, which reads plain files only. */
    private Path plainCopy(Path f, byte[] content) throws IOException {
        Path p = dir.resolve("plain-" + f.getFileName().toString().replace(".gz", ""));
        Files.write(p, content);
        return p;
    }

    /** The {@code .json} / {@code .json.gz} files under {@code root}; with {@code sniff}, only those that look like Kineto. */
    private static List<Path> kinetoFiles(Path root, boolean sniff) throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                String n = p.getFileName().toString();
                if ((n.endsWith(".json") || n.endsWith(".json.gz")) && (!sniff || KinetoReader.looksLikeKineto(p))) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /**
     * A well-formed file: the fast path must take it (sequentially and in parallel) with the
     * Jackson model, and the parallel scan must cut its events array without falling back
     * ({@link ParallelArrayScan.Resequence}) and hand over exactly the sequential event stream.
     */
    private void checkWellFormed(Checker c, String name, Path f, int[] chunks) throws IOException {
        byte[] content = decompressed(f);
        boolean gz = InputStreams.isGzip(f);
        String ref = c.checkFile(name, f, content, Expect.ACCEPT, gz ? new int[0] : chunks);
        Path plain = gz ? plainCopy(f, content) : f;
        if (gz) {
            c.checkParallel(name + " (decompressed)", plain, ref, chunks);
        }
        List<String> sequential = KinetoParity.scannerEvents(new java.io.ByteArrayInputStream(content), true);
        assertTrue(sequential != null, name + ": the event scan declined a well-formed file");
        for (int k = 0; k < chunks.length; k++) {
            int threads = 2 + k % 2;
            List<String> parallel;
            try {
                parallel = KinetoParity.parallelEvents(plain, chunks[k], threads);
            } catch (ParallelArrayScan.Resequence e) {
                c.failures.add(name + ": the parallel scan (chunks of " + chunks[k] + ") fell back: " + e.getMessage());
                continue;
            }
            if (!sequential.equals(parallel)) {
                c.failures.add(name + ": parallel event stream (chunks of " + chunks[k] + ", " + threads
                        + " threads) differs: " + KinetoParity.firstDifference(String.join("\n", sequential),
                        String.join("\n", parallel)));
            }
        }
    }

    @Test
    void everySampleGivesTheJacksonModelSequentiallyAndInParallel() throws IOException {
        Path samples = projectRoot().resolve("samples");
        assertTrue(Files.isDirectory(samples), "samples/ not found at " + samples + " (set -Doverlap.projectRoot)");
        List<Path> files = kinetoFiles(samples, true);
        assertTrue(files.size() >= 10, "Kineto samples found: " + files);
        Checker c = new Checker(dir);
        for (Path f : files) {
            checkWellFormed(c, samples.relativize(f).toString(), f, new int[] {1000, 4096, 65536});
        }
        c.assertNoFailures("samples");
    }

    @Test
    void everySharedKinetoTraceGivesTheJacksonModel() throws IOException {
        String root = System.getProperty("overlap.sharedTraces", "../shared/traces");
        Path kineto = Path.of(root, "kineto");
        Assumptions.assumeTrue(Files.isDirectory(kineto),
                "shared traces not found at " + kineto + " (set -Doverlap.sharedTraces): skipping");
        // Every file there is Kineto (one has over 16 KB of header before "traceEvents": no sniff).
        List<Path> files = kinetoFiles(kineto, false);
        assertFalse(files.isEmpty(), "no Kineto trace in " + kineto);
        Checker c = new Checker(dir);
        c.publicWhenTaken = false; // the same read as the scanner path's when it takes the file
        c.trickle = false;
        List<String> declined = new ArrayList<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            byte[] content = decompressed(f);
            boolean gz = InputStreams.isGzip(f);
            // Event-level comparison and small parallel chunks for the small ones; the biggest (54 MB)
            // is read in parallel as readWithScanner(Path) chooses (over 32 MiB: 16 MiB chunks, rehearsals).
            int size = content.length;
            int[] chunks = size > 20_000_000 ? new int[0] : size > 2_000_000 ? new int[] {1 << 20} : new int[] {4096, 65536};
            String ref = c.checkFile(name, f, size > 2_000_000 ? null : content, Expect.EITHER, gz ? new int[0] : chunks);
            if (!c.lastTook) {
                declined.add(name);
            }
            Path plain = gz ? plainCopy(f, content) : f;
            if (gz) {
                c.checkParallel(name + " (decompressed)", plain, ref, chunks);
            }
            if (Files.size(plain) >= ParallelArrayScan.MIN_FILE_BYTES) {
                String byDefault = outcome(() -> new KinetoReader().readWithScanner(plain));
                if (!withoutSource(byDefault).equals(withoutSource(ref))) {
                    c.failures.add(name + ": readWithScanner(Path) on the plain copy (parallel) differs at "
                            + KinetoParity.firstDifference(ref, byDefault));
                }
            }
            if (gz) {
                Files.delete(plain);
            }
        }
        System.out.println("shared traces the scanner path declined: " + declined);
        c.assertNoFailures("shared traces");
    }

    /** Every built-in scenario, plain and gzip, with stream waits, another rank and jitter. */
    @Test
    void generatedScenariosGiveTheJacksonModelSequentiallyAndInParallel() throws IOException {
        Checker c = new Checker(dir);
        List<Scenario> scenarios = new ArrayList<>();
        for (String n : BuiltinScenarios.names()) {
            scenarios.add(BuiltinScenarios.get(n));
        }
        Scenario seed = BuiltinScenarios.get("seed-1ms-optimizer");
        scenarios.add(seed.withSyncEvents(true).withSteps(3));
        scenarios.add(seed.withRank(3, 8).withJitter(7, 11).withSteps(4));
        int i = 0;
        for (Scenario s : scenarios) {
            for (String ext : new String[] {".pt.trace.json", ".pt.trace.json.gz"}) {
                Path f = dir.resolve("gen-" + i++ + "-" + s.name() + ext);
                KinetoScenarioWriter.write(s, f);
                checkWellFormed(c, f.getFileName().toString(), f, new int[] {4096, 65536, 777});
            }
        }
        // Other device layouts: two GPUs of one process (read(Path) splits them), an MTIA lane.
        for (DeviceLayoutWriter.Layout layout : DeviceLayoutWriter.Layout.values()) {
            for (String ext : new String[] {".pt.trace.json", ".pt.trace.json.gz"}) {
                Path f = dir.resolve("gen-" + i++ + "-" + layout + ext);
                DeviceLayoutWriter.write(seed.withSyncEvents(true).withSteps(3), layout, 3_000_000, f);
                checkWellFormed(c, f.getFileName().toString(), f, new int[] {4096, 65536, 777});
            }
        }
        c.assertNoFailures("generated scenarios");
    }

    /**
     * A generated trace over 16 MiB: the parallel scan then also runs its JIT rehearsals (samples
     * spread over the array, thrown away), which must not change the result.
     */
    @Test
    void aLargeGeneratedTraceScannedInParallelWithRehearsals() throws IOException {
        Path f = dir.resolve("large.pt.trace.json");
        KinetoScenarioWriter.write(BuiltinScenarios.get("training-jitter").withSyncEvents(true).withSteps(420), f);
        long size = Files.size(f);
        assertTrue(size > (16L << 20) + 100_000, "large enough for the rehearsals: " + size);
        String ref = KinetoParity.jackson(f);
        assertTrue(ref.startsWith("source="), ref);
        assertEquals(ref, KinetoParity.scanner(f, 1 << 20, 3));
        List<String> sequential;
        try (InputStream in = Files.newInputStream(f)) {
            sequential = KinetoParity.scannerEvents(in, true);
        }
        assertEquals(sequential, KinetoParity.parallelEvents(f, 2 << 20, 2), "parallel events without a fallback");
    }

    /**
     * Bug found by this test (fixed in {@code Utf8JsonScanner.scanString}): the scanner's fast path
     * for a string whose closing quote is already in the buffer did not apply the 4 MiB string
     * limit. The buffer only grows beyond 1 MiB while a header value is captured, so after a
     * {@code distributedInfo} over 32 MiB a string of more than 20,000,000 characters was taken
     * whole, where the Jackson path has its own rules for it — a possibly different model.
     */
    @Test
    void aStringOverJacksonsLimitAfterAHugeCapturedHeaderIsDeclined() throws IOException {
        byte[] head = utf8("{\"distributedInfo\":{\"rank\":1,");
        byte[] pad = new byte[33 << 20];
        java.util.Arrays.fill(pad, (byte) ' ');
        byte[] mid = utf8("\"world_size\":2},\"traceEvents\":[" + KinetoDocs.baseEvents("\"k\"").get(KinetoDocs.KERNEL)
                + ",{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"");
        byte[] name = new byte[20_000_001];
        java.util.Arrays.fill(name, (byte) 'n');
        byte[] tail = utf8("\"}}]}");
        Path f = dir.resolve("huge-header.json");
        try (OutputStream out = Files.newOutputStream(f)) {
            for (byte[] b : new byte[][] {head, pad, mid, name, tail}) {
                out.write(b);
            }
        }
        // The Jackson path accepts strings up to InputLimits.PARSER_CONSTRAINTS (256 M characters):
        // it reads the file whole, and the fast path hands it over rather than give another model.
        String ref = KinetoParity.jackson(f);
        assertTrue(ref.contains("truncated=false"), ref.lines().limit(3).toList().toString());
        String fast = KinetoParity.scanner(f, 0, 1);
        assertEquals(UNSUPPORTED, fast, "the fast path must decline it, not give " + KinetoParity.firstDifference(ref, fast));
    }

    /**
     * Bug found by this test (fixed in {@code KinetoReader.scan}): the fast path reads ahead in
     * pieces of up to 1 MiB, Jackson in 64 KB ones, so on a gzip file an input limit
     * ({@link io.overlapanalyze.formats.input.InputLimits}: {@code --max-input-size}, or the ratio
     * checked after 64 MiB) can be crossed by the fast path alone, in data after the JSON that
     * Jackson never reads: {@link io.overlapanalyze.formats.input.InputLimitExceededException} instead of
     * the trace. And where both cross it, the ratio message counts different byte totals. The fast
     * path now leaves every input-limit case to the Jackson path.
     */
    @Test
    void anInputLimitCrossedByTheFastPathsReadAheadIsLeftToJackson() throws IOException {
        {
            // The JSON is 5 KB; 2 MiB of blanks follow it. Limit: 512 KiB.
            Path padded = dir.resolve("padded.json.gz");
            try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(padded))) {
                z.write(utf8(base()));
                z.write(utf8(" ".repeat(2 << 20)));
            }
            io.overlapanalyze.formats.input.InputLimits small = new io.overlapanalyze.formats.input.InputLimits(512 << 10, 200);
            String ref = KinetoParity.jackson(padded, small);
            assertTrue(ref.startsWith("source="), ref);
            String fast = KinetoParity.scanner(padded, 0, 1, small);
            assertTrue(fast.equals(UNSUPPORTED) || fast.equals(ref), "the fast path gave " + fast.lines().findFirst().orElse(""));
            assertEquals(ref, KinetoParity.publicRead(padded, small));

            // The ratio limit (checked after 64 MiB), crossed inside the JSON by both paths: the same message.
            Path bomb = dir.resolve("bomb.json.gz");
            try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(bomb))) {
                z.write(utf8("{\"traceEvents\":[" + events() + "],\"pad\":\"x\","));
                byte[] blanks = new byte[1 << 20];
                java.util.Arrays.fill(blanks, (byte) ' ');
                for (int i = 0; i < 70; i++) {
                    z.write(blanks);
                }
                z.write(utf8("\"end\":1}"));
            }
            String bombRef = KinetoParity.jackson(bomb);
            assertTrue(bombRef.contains("InputLimitExceededException") && bombRef.contains("times its compressed size"), bombRef);
            assertEquals(bombRef, KinetoParity.publicRead(bomb));
        }
    }

    // ------------------------------------------------------------------ handcrafted documents

    private record Case(String name, byte[] doc, Expect expect) {
    }

    private static Case ok(String name, String doc) {
        return new Case(name, utf8(doc), Expect.ACCEPT);
    }

    private static Case ok(String name, byte[] doc) {
        return new Case(name, doc, Expect.ACCEPT);
    }

    private static Case no(String name, String doc) {
        return new Case(name, utf8(doc), Expect.UNSUPPORTED);
    }

    private static Case no(String name, byte[] doc) {
        return new Case(name, doc, Expect.UNSUPPORTED);
    }

    private static String kernelNameJson(String jsonLiteral) {
        return withEvent(KinetoDocs.KERNEL, KinetoDocs.baseEvents(jsonLiteral).get(KinetoDocs.KERNEL));
    }

    private static String kernel(String fields) {
        return withEvent(KinetoDocs.KERNEL, "{" + fields + "}");
    }

    private static final String K_NAME = "\"name\":\"void gemm_kernel<float>(float*)\"";
    private static final String K_ARGS = "\"args\":{\"External id\":2,\"device\":0,\"stream\":7,\"correlation\":501}";

    /** The compute kernel with its ts written as {@code ts}. */
    private static String kernelTs(String ts) {
        return kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":7,\"ts\":" + ts + ",\"dur\":100.5," + K_ARGS);
    }

    /** The compute kernel with an extra args member {@code member} (skipped or read). */
    private static String kernelArg(String member) {
        return kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":7,\"ts\":1030,\"dur\":100.5,"
                + "\"args\":{\"External id\":2,\"device\":0,\"stream\":7,\"correlation\":501," + member + "}");
    }

    /** The record_param_comms op with {@code Process Group Ranks} written as {@code ranks}. */
    private static String rpcRanks(String ranks) {
        return withEvent(KinetoDocs.RECORD_PARAM_COMMS, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\","
                + "\"pid\":100,\"tid\":101,\"ts\":2605,\"dur\":40,\"args\":{\"External id\":20,\"Collective name\":\"allreduce\","
                + "\"In msg nelems\":1000,\"Out msg nelems\":1000,\"dtype\":\"Float\",\"Group size\":2,"
                + "\"Process Group Name\":\"7\",\"Process Group Ranks\":" + ranks + ",\"Seq\":7}}");
    }

    private static String topLevel(String before, String events, String after) {
        return "{" + before + "\"traceEvents\":[" + events + "]" + after + "}";
    }

    private static String events() {
        return String.join(",", KinetoDocs.baseEvents(KinetoDocs.quote(KinetoDocs.KERNEL_NAME)));
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "1" + "]".repeat(depth);
    }

    private static List<Case> handcrafted() {
        List<Case> c = new ArrayList<>();
        String base = base();
        c.add(ok("base document", base));
        c.add(ok("pretty printed with tabs and CRLF", base.replace(",", ",\r\n\t").replace(":", " :\t ")
                .replace("{", "{\r\n  ").replace("}", "\t}")));
        c.add(ok("byte order mark", bytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, base)));
        c.add(ok("leading and trailing whitespace", " \t\r\n" + base + " \n\n"));
        c.add(ok("junk after the top-level object (neither path reads it)", base.trim() + " ]]] not json"));

        // Names: escapes, raw UTF-8, raw control characters.
        c.add(ok("every escape in a kernel name", kernelNameJson(
                "\"k\\n\\\"\\\\\\/\\u00e9\\ud83d\\ude00\\q\\t\\b\\f\\r\\u0000\\uFFFF\\u00C9\\'\\%z\"")));
        c.add(ok("lone surrogate escapes", kernelNameJson("\"a\\ud800b\\udc00c\\uDBFF\"")));
        c.add(ok("escapes in a thread name", withEvent(KinetoDocs.THREAD_MAIN, "{\"ph\":\"M\",\"name\":\"thread_name\","
                + "\"pid\":100,\"tid\":100,\"args\":{\"name\":\"thread\\t100 \\\"main\\\" \\u00fc \\x\"}}")));
        c.add(ok("escapes in ph, cat and name routing values", withEvent(KinetoDocs.KERNEL,
                "{\"ph\":\"\\u0058\",\"cat\":\"k\\u0065rnel\",\"name\":\"\\/gemm\",\"pid\":0,\"tid\":7,\"ts\":1030,\"dur\":5,"
                        + K_ARGS + "}")));
        c.add(ok("escapes in collective args", withEvent(KinetoDocs.RECORD_PARAM_COMMS, "{\"ph\":\"X\",\"cat\":\"cpu_op\","
                + "\"name\":\"record_param_comms\",\"pid\":100,\"tid\":101,\"ts\":2605,\"dur\":40,\"args\":{\"External id\":\"20\","
                + "\"Collective name\":\"all\\u0072educe\",\"dtype\":\"Fl\\oat\",\"In msg nelems\":\" 1000 \","
                + "\"Process Group Name\":\"\\u0030\",\"Process Group Description\":\"d\\\\pg\",\"Process Group Ranks\":\"[0,\\u00201]\"}}")));
        c.add(ok("raw UTF-8 of 2, 3 and 4 bytes", kernelNamed(utf8("gemm_é_ß_中文_€_😀_𐀀_\uDBFF\uDFFF"))));
        c.add(ok("raw control characters in a name", kernelNamed(new byte[] {'a', 1, 'b', 0x1f, '\t', 0x7f, 0, 'c'})));
        c.add(ok("a name of 100 KB", kernelNameJson("\"" + "x".repeat(100_000) + "\"")));
        c.add(ok("a name of 2 MiB (longer than the scanner's buffer)", kernelNameJson("\"" + "é".repeat(1 << 19) + "x".repeat(1 << 20) + "\"")));
        c.add(ok("a string of '}, {' patterns and nested objects that look like events", kernelNameJson(
                "\"x}, {\\\"ph\\\":\\\"X\\\"}, {}, {\\\"a\\\": {}}, {\"")));
        c.add(ok("args with event-like nested objects", kernelArg("\"list\":[{\"ph\":\"X\",\"cat\":\"kernel\"}, {}, "
                + "{\"name\":\"}, {\"}],\"o\":{\"ph\":\"X\"}")));

        // Invalid or unusual bytes: declined; read(Path) gives Jackson's (Reader-path) result.
        byte[][] invalid = {
            {(byte) 0xff}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xc1, (byte) 0xbf}, {(byte) 0xe0, (byte) 0x80, (byte) 0x80},
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xf5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xe2, (byte) 0x82}, {(byte) 0x80},
            {'a', (byte) 0xf0, (byte) 0x9f, (byte) 0x98}, {(byte) 0xc3, '(', 'x'}, {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
        };
        for (byte[] b : invalid) {
            c.add(no("invalid UTF-8 " + hex(b) + " in a kernel name", kernelNamed(bytes("ok_", b, "_ok"))));
        }
        c.add(no("invalid UTF-8 in a skipped args value", replace(kernelArg("\"note\":\"@@\""), "@@", new byte[] {(byte) 0xfe})));
        c.add(no("invalid UTF-8 in a key", replace(kernelArg("\"@@\":1"), "@@", new byte[] {(byte) 0xc0, (byte) 0x80})));
        c.add(no("backslash before a control character", kernelNamed(new byte[] {'a', '\\', 1, 'b'})));
        c.add(no("backslash before a non-ASCII character", kernelNamed(bytes("a\\", "é", "b"))));
        c.add(no("a bad \\u escape", kernelNameJson("\"a\\u12G4\"")));
        c.add(no("a short \\u escape", kernelNameJson("\"a\\u12\"")));
        c.add(no("UTF-16 text", base.getBytes(StandardCharsets.UTF_16BE)));
        c.add(no("UTF-16 text with its byte order mark", base.getBytes(StandardCharsets.UTF_16)));

        // Numbers.
        for (String ts : new String[] {"0", "-0", "-5.5", "1030.1234567", "1030.1235", "0.5", "-0.0005", "1030.000",
                "922337203685477", "\"1030.125\"", "\" 1030 \"", "\"1e3\"", "\"-0\"", "\"+7\""}) {
            c.add(ok("ts " + ts, kernelTs(ts)));
        }
        for (String ts : new String[] {"01030", "-01", "00.5", "1.03e3", "1E3", "1e-3", "-1.5E+2", "1.", ".5", "-", "+1",
                "NaN", "Infinity", "-Infinity", "1030.5.5", "0x10", "\"abc\"", "\"\"", "true", "{}", "[]"}) {
            c.add(no("ts " + ts, kernelTs(ts)));
        }
        // Numbers beyond 64-bit nanoseconds: the event is skipped with a warning on both paths (issue 29).
        for (String ts : new String[] {"99999999999999999999", "\"1e400\"", "9223372036854775807.5"}) {
            c.add(ok("ts " + ts, kernelTs(ts)));
        }
        c.add(ok("pid and tid as floats", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0.0,\"tid\":7.5,"
                + "\"ts\":1030,\"dur\":1," + K_ARGS)));
        c.add(ok("pid and tid as strings", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":\"0\",\"tid\":\"Spans\","
                + "\"ts\":1030,\"dur\":1," + K_ARGS)));
        c.add(ok("pid and tid -0 and booleans", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":-0,\"tid\":true,"
                + "\"ts\":1030,\"dur\":1," + K_ARGS)));
        c.add(ok("pid beyond long", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":9223372036854775808,"
                + "\"tid\":-9223372036854775808,\"ts\":1030,\"dur\":1," + K_ARGS)));
        c.add(no("pid as an object", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":{},\"tid\":7,\"ts\":1,\"dur\":1")));
        c.add(no("tid as an array", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":[7],\"ts\":1,\"dur\":1")));
        c.add(no("name as an object", kernel("\"ph\":\"X\",\"cat\":\"kernel\",\"name\":{\"a\":1},\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":1")));
        c.add(ok("name as a number", kernel("\"ph\":\"X\",\"cat\":\"kernel\",\"name\":12.50,\"pid\":0,"
                + "\"tid\":7,\"ts\":1,\"dur\":1," + K_ARGS)));
        c.add(ok("ph, cat and name as booleans and numbers", withEvent(0, "{\"ph\":true,\"cat\":-0,\"name\":false}")));
        c.add(ok("ph as a number", withEvent(0, "{\"ph\":-0.5,\"cat\":false,\"name\":true,\"pid\":1,\"tid\":1,\"args\":{\"name\":7}}")));
        for (String v : new String[] {"18446744073709551616", "9223372036854775808", "-9223372036854775808",
                "9223372036854775807", "\"501\"", "\" 501\"", "501.0", "-501", "true", "null", "{\"a\":[1]}", "[501]",
                "\"0x1f5\"", "\"\"", "\"5\\u00301\"", "0"}) {
            c.add(ok("correlation " + v, kernelArg("\"correlation\":" + v)));
            c.add(ok("External id " + v, kernelArg("\"External id\":" + v)));
            c.add(ok("stream " + v, kernelArg("\"stream\":" + v)));
        }
        // Launch shapes: three integers in [0, 2^21) are a shape, anything else leaves it unknown.
        for (String v : new String[] {"[132,1,1]", "[132, 1]", "[1,2,3,4]", "[1.5,1,1]", "[-1,1,1]", "[\"132\",1,1]",
                "[[1],1,1]", "[2097151,65535,65535]", "[2097152,1,1]", "[18446744073709551616,1,1]", "null", "132", "{}",
                "[]", "[null,1,1]", "\"[132,1,1]\""}) {
            c.add(ok("grid " + v, kernelArg("\"grid\":" + v + ",\"block\":[128,1,1]")));
            c.add(ok("block " + v, kernelArg("\"block\":" + v + ",\"grid\":[8,16,1]")));
        }
        c.add(ok("a 500-digit number in skipped args", kernelArg("\"big\":" + "7".repeat(500))));
        c.add(no("a 501-digit number in skipped args", kernelArg("\"big\":" + "7".repeat(501))));
        c.add(no("a 1001-digit number (over Jackson's limit)", kernelArg("\"big\":" + "7".repeat(1001))));
        c.add(no("an exponent in skipped args", kernelArg("\"registers\":3e2")));
        c.add(no("NaN in skipped args", kernelArg("\"occupancy\":NaN")));
        c.add(no("-Infinity in read args", kernelArg("\"stream\":-Infinity")));
        // Issue 29: the event is skipped with a warning on both paths (it refused the file), so they agree.
        c.add(ok("ts + dur out of range", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":7,"
                + "\"ts\":9223372036854775,\"dur\":9223372036854775," + K_ARGS)));

        // Nulls, empty events, duplicates, order.
        for (String f : new String[] {"ph", "cat", "name", "pid", "tid", "ts", "dur", "args"}) {
            c.add(ok(f + " null on every event", doc(e -> e.replace("\"" + f + "\":", "\"" + f + "\":null,\"x" + f + "\":"))));
        }
        c.add(ok("null events", topLevel("", "null," + events() + ",null,null", "")));
        c.add(ok("only null events", topLevel("", "null", "")));
        c.add(ok("one empty {} event at the end", topLevel("", events() + ",{}", "")));
        c.add(ok("several empty events", topLevel("", "{}," + events() + ",{ },{\n}", "")));
        c.add(ok("an empty events array", topLevel("", "", ",\"baseTimeNanoseconds\":5")));
        c.add(ok("duplicate keys: the last wins", kernel("\"ph\":\"i\",\"ph\":\"X\",\"cat\":\"cpu_op\",\"cat\":\"kernel\",\"name\":\"a\","
                + K_NAME + ",\"pid\":\"s\",\"pid\":0,\"tid\":7,\"ts\":5,\"ts\":1030,\"dur\":null,\"dur\":2,\"args\":null," + K_ARGS
                + ",\"args\":{\"stream\":9,\"correlation\":501,\"stream\":7}")));
        c.add(ok("duplicate ts, the last null", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":7,"
                + "\"ts\":1030,\"ts\":null,\"dur\":1," + K_ARGS)));
        c.add(ok("Process Group ID after Process Group Name", rpcRanks("[0,1],\"Process Group ID\":\"9\"")));
        c.add(ok("Process Group ID before Process Group Name", withEvent(KinetoDocs.RECORD_PARAM_COMMS, "{\"ph\":\"X\","
                + "\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":100,\"tid\":101,\"ts\":2605,\"dur\":40,"
                + "\"args\":{\"External id\":20,\"Collective name\":\"allreduce\",\"Process Group ID\":\"9\","
                + "\"Process Group Name\":\"0\",\"Process Group ID\":\"8\"}}")));
        c.add(ok("Process Group ID alone", withEvent(KinetoDocs.RECORD_PARAM_COMMS, "{\"ph\":\"X\",\"cat\":\"cpu_op\","
                + "\"name\":\"record_param_comms\",\"pid\":100,\"tid\":101,\"ts\":2605,\"dur\":40,\"args\":{\"External id\":20,"
                + "\"Collective name\":\"allreduce\",\"Process Group ID\":null,\"Process Group ID\":3,\"Process Group ID\":4}}")));
        c.add(ok("fields in reverse order, args first", doc(KinetoScannerParityTest::reversed)));
        c.add(ok("args before ph, cat and name (args read because still unknown)", withEvent(KinetoDocs.RECORD_PARAM_COMMS,
                "{\"args\":{\"External id\":20,\"Collective name\":\"allreduce\",\"In msg nelems\":1000,\"dtype\":\"Float\"},"
                        + "\"ts\":2605,\"dur\":40,\"pid\":100,\"tid\":101,\"name\":\"record_param_comms\",\"cat\":\"cpu_op\",\"ph\":\"X\"}")));
        c.add(ok("args of an ignored event skipped, then ph changed", withEvent(KinetoDocs.KERNEL,
                "{\"ph\":\"f\",\"cat\":\"kernel\",\"args\":{\"stream\":7,\"correlation\":501},\"ph\":\"X\"," + K_NAME
                        + ",\"pid\":0,\"tid\":7,\"ts\":1030,\"dur\":1}")));
        c.add(ok("nested containers in args", kernelArg("\"grid\":[1,[2,[3,{\"a\":[{}]}]]],\"block\":{\"x\":{\"y\":{\"z\":null}}},"
                + "\"list\":[[],{},[{}],\"s\",true,false,null,-1.5]")));
        c.add(ok("150 levels of nesting in args", kernelArg("\"deep\":" + nested(150))));
        c.add(no("250 levels of nesting in args", kernelArg("\"deep\":" + nested(250))));
        c.add(no("1100 levels of nesting (over Jackson's limit)", kernelArg("\"deep\":" + nested(1100))));
        c.add(ok("a 1000-byte key", kernelArg("\"" + "k".repeat(1000) + "\":1")));
        c.add(no("a 1001-byte key", kernelArg("\"" + "k".repeat(1001) + "\":1")));
        c.add(ok("a non-ASCII key", kernelArg("\"nämé\":1,\"ストリーム\":2")));
        for (String ranks : new String[] {"[0,1]", "[0, 1, 2]", "\"[0, 1]\"", "\"0,1\"", "[]", "[0,[1],{\"a\":[2]},null,\"x\",true,1.5,-0]",
                "[[0,1]]", "[null]", "[\"0\",\"1\"]", "7", "null", "{\"r\":[0]}", "\"\"", "[0,\"\\u0031\"]", "false"}) {
            c.add(ok("Process Group Ranks " + ranks, rpcRanks(ranks)));
        }

        // distributedInfo and baseTimeNanoseconds.
        String ev = events();
        String dist = "\"distributedInfo\":" + KinetoDocs.DIST;
        c.add(ok("distributedInfo after traceEvents", topLevel("", ev, "," + dist)));
        c.add(ok("distributedInfo before and after (the last wins)", topLevel(dist + ",", ev,
                ",\"distributedInfo\":{\"rank\":\"3\",\"world_size\":8}")));
        c.add(ok("headers with arrays of objects after traceEvents", topLevel("", ev, ",\"deviceProperties\":"
                + KinetoDocs.DEVICE_PROPS + ",\"distributedInfo\":" + KinetoDocs.DIST + ",\"x\":[{\"a\":1}, {\"b\":2}, {}]")));
        c.add(ok("distributedInfo null", topLevel("\"distributedInfo\":null,", ev, "")));
        c.add(ok("distributedInfo with odd pg_config", topLevel("\"distributedInfo\":{\"rank\":0,\"world_size\":null,\"pg_config\":"
                + "[null,1,{\"pg_name\":\"0\",\"ranks\":\"[0, 1]\"},{\"pg_name\":5,\"pg_desc\":true,\"ranks\":[0,[1],null]},[]]},", ev, "")));
        c.add(ok("distributedInfo pg_config an object", topLevel("\"distributedInfo\":{\"rank\":2,\"pg_config\":{\"a\":[1]}},", ev, "")));
        c.add(ok("distributedInfo with escapes and deep values", topLevel("\"distributedInfo\":{\"backend\":\"n\\u0063cl\","
                + "\"rank\":1,\"x\":" + nested(100) + ",\"pg_config\":[{\"pg_name\":\"\\u0030\",\"ranks\":[0,1]}]},", ev, "")));
        c.add(no("distributedInfo a string", topLevel("\"distributedInfo\":\"x\",", ev, "")));
        c.add(no("distributedInfo rank not an integer", topLevel("\"distributedInfo\":{\"rank\":\"one\"},", ev, "")));
        c.add(no("distributedInfo rank a float", topLevel("\"distributedInfo\":{\"rank\":1.0},", ev, "")));
        c.add(no("distributedInfo rank beyond int", topLevel("\"distributedInfo\":{\"rank\":3000000000},", ev, "")));
        for (String b : new String[] {"1700000000000000000", "\"1700000000000000000\"", "null", "0", "-5", "\" 42 \""}) {
            c.add(ok("baseTimeNanoseconds " + b + " before", topLevel("\"baseTimeNanoseconds\":" + b + ",", ev, "")));
            c.add(ok("baseTimeNanoseconds " + b + " after", topLevel("", ev, ",\"baseTimeNanoseconds\":" + b)));
        }
        c.add(ok("baseTimeNanoseconds twice, the last null", topLevel("\"baseTimeNanoseconds\":7,", ev, ",\"baseTimeNanoseconds\":null")));
        for (String b : new String[] {"1.5", "\"x\"", "true", "{}", "[1]", "9223372036854775807", "18446744073709551616"}) {
            c.add(no("baseTimeNanoseconds " + b, topLevel("", ev, ",\"baseTimeNanoseconds\":" + b)));
        }
        c.add(no("baseTimeNanoseconds 1e18", topLevel("", ev, ",\"baseTimeNanoseconds\":1e18")));

        // Top-level shapes.
        c.add(ok("two traceEvents arrays", topLevel("\"traceEvents\":[" + ev + "],", ev.replace("1030.125", "7030.125"), "")));
        c.add(ok("other top-level values of every kind", topLevel("\"a\":[1,{\"b\":[\"}, {\\\"\"]}],\"c\":\"x\",\"d\":null,\"e\":true,"
                + "\"f\":-0.5,\"g\":{},\"h\":[],", ev, ",\"z\":{\"traceEvents\":5}")));
        c.add(no("traceEvents null", "{\"traceEvents\":null}"));
        c.add(no("traceEvents an object", "{\"traceEvents\":{}}"));
        c.add(no("no traceEvents", "{\"schemaVersion\":1}"));
        c.add(no("an empty object", "{}"));
        c.add(no("an event that is a number", topLevel("", ev + ",5", "")));
        c.add(no("an event that is an array", topLevel("", "[]," + ev, "")));
        c.add(no("an event that is a string", topLevel("", ev + ",\"x\"", "")));
        c.add(no("a top-level array", "[" + ev + "]"));
        c.add(no("an empty file", ""));
        c.add(no("whitespace only", " \n\t "));
        c.add(no("null", "null"));
        c.add(no("args a string", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":1,\"args\":\"x\"")));
        c.add(no("args an array on an ignored event", withEvent(8, "{\"ph\":\"f\",\"args\":[1]}")));

        // Trailing commas and keys with escapes: Jackson takes them, the scanner leaves them to it.
        c.add(no("a trailing comma in traceEvents", topLevel("", ev + ",", "")));
        c.add(no("a trailing comma in an event", kernel("\"ph\":\"X\",\"cat\":\"kernel\"," + K_NAME + ",\"pid\":0,\"tid\":7,"
                + "\"ts\":1,\"dur\":1,")));
        c.add(no("a trailing comma in args", kernelArg("\"x\":1,")));
        c.add(no("a trailing comma in a skipped array", kernelArg("\"grid\":[1,1,]")));
        c.add(no("a trailing comma at the top level", topLevel("", ev, ",")));
        c.add(no("a trailing comma in distributedInfo", topLevel("\"distributedInfo\":{\"rank\":1,},", ev, "")));
        c.add(no("a key with an escape spelling name", kernel("\"ph\":\"X\",\"cat\":\"kernel\",\"n\\u0061me\":\"k\",\"pid\":0,"
                + "\"tid\":7,\"ts\":1,\"dur\":1," + K_ARGS)));
        c.add(no("a top-level key with an escape", "{\"trace\\u0045vents\":[" + ev + "]}"));
        c.add(no("an args key with an escape", kernelArg("\"str\\u0065am\":9")));
        c.add(no("a key with a raw control character", kernelArg("\"a\tb\":1")));
        c.add(no("a missing comma", kernel("\"ph\":\"X\" \"cat\":\"kernel\"")));
        c.add(no("a missing colon", kernel("\"ph\" \"X\"")));
        c.add(no("single quotes", kernel("'ph':'X'")));
        c.add(no("a comment", topLevel("/* c */", ev, "")));
        c.add(no("a vertical tab between tokens", topLevel("\u000b", ev, "")));
        c.add(no("a form feed between tokens", kernelArg("\"x\":\f1")));
        c.add(no("a no-break space between tokens", topLevel("\u00a0", ev, "")));
        c.add(no("a literal cut short", kernelArg("\"x\":nul")));
        c.add(no("a literal with junk", kernelArg("\"x\":truex")));
        c.add(no("a raw newline inside a number", kernelTs("10\n30")));
        return c;
    }

    private static byte[] replace(String doc, String marker, byte[] with) {
        int at = doc.indexOf(marker);
        return bytes(doc.substring(0, at), with, doc.substring(at + marker.length()));
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** The event with its members in reverse order (args first). */
    private static String reversed(String event) {
        try {
            ObjectNode ev = (ObjectNode) MAPPER.readTree(event);
            List<String> names = new ArrayList<>();
            ev.fieldNames().forEachRemaining(names::add);
            ObjectNode out = MAPPER.createObjectNode();
            for (int i = names.size() - 1; i >= 0; i--) {
                out.set(names.get(i), ev.get(names.get(i)));
            }
            return MAPPER.writeValueAsString(out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The base document with every event rewritten by {@code f}. */
    private static String doc(java.util.function.UnaryOperator<String> f) {
        List<String> e = new ArrayList<>();
        for (String s : KinetoDocs.baseEvents(KinetoDocs.quote(KinetoDocs.KERNEL_NAME))) {
            e.add(f.apply(s));
        }
        return KinetoDocs.doc(e);
    }

    @Test
    void handcraftedDocumentsGiveTheJacksonModelOrAreDeclined() throws IOException {
        Checker c = new Checker(dir);
        int i = 0;
        for (Case k : handcrafted()) {
            c.check(k.name(), k.doc(), k.expect(), k.doc().length < 100_000 ? new int[] {TINY[i++ % TINY.length]}
                    : new int[] {1 << 16});
        }
        c.assertNoFailures("handcrafted documents");
        assertTrue(c.accepted > 100 && c.declined > 50, c.summary());
    }

    /** Sanity of the harness itself: the dump sees a change in any one field. */
    @Test
    void theDumpSeesSmallChanges() throws IOException {
        Path a = Files.writeString(dir.resolve("a.json"), base());
        String ref = KinetoParity.jackson(a);
        String[][] edits = {
            {"void gemm_kernel<float>(float*)", "void gemm_kernel<float>(float *)"},
            {"\"ts\":1030.125", "\"ts\":1030.126"},
            {"\"Total Allocated\":8192", "\"Total Allocated\":8193"},
            {"\"Process Group Ranks\":[0,1]", "\"Process Group Ranks\":[1,0]"},
            {"\"wait_on_cuda_event_record_corr_id\":600", "\"wait_on_cuda_event_record_corr_id\":601"},
            {"(pt_autograd_0)", "(pt_autograd_1)"},
            {"\"correlation\":777", "\"correlation\":778"},
            {"\"rank\":1", "\"rank\":0"},
            {BASE_NS_FIELD, "\"baseTimeNanoseconds\":1700000000000000001"},
        };
        for (String[] e : edits) {
            String edited = base().replace(e[0], e[1]);
            assertNotEquals(base(), edited, e[0]);
            Path b = Files.writeString(dir.resolve("b.json"), edited);
            assertNotEquals(ref, KinetoParity.jackson(b).replace(b.toString(), a.toString()), "the dump misses " + e[0]);
        }
    }

    private static final String BASE_NS_FIELD = "\"baseTimeNanoseconds\":" + KinetoDocs.BASE_NS;

    // ------------------------------------------------------------------ every field, every value kind

    /**
     * Each field of each base event (and of its args) in turn set to null, a boolean, numbers,
     * strings, containers, a big integer, or removed; ph and cat also to each routing value.
     * Jackson's result decides: when it gives a trace, the fast path must take the input (every
     * value here is in its subset) and give the same.
     */
    @Test
    void everyFieldWithEveryKindOfValue() throws IOException {
        ObjectMapper m = MAPPER;
        JsonNodeFactory n = JsonNodeFactory.instance;
        List<JsonNode> values = List.of(n.nullNode(), n.booleanNode(false), n.numberNode(new java.math.BigDecimal("1.50")),
                n.numberNode(-1), n.textNode(" 12 "), n.objectNode(), m.readTree("[1,[2],{\"a\":null},\"s\"]"),
                n.numberNode(new BigInteger("18446744073709551616")), n.textNode("é\n\u0001\""));
        List<String> phs = List.of("X", "M", "i", "I", "s", "f", "C", "B", "");
        List<String> cats = List.of("kernel", "Kernel", "gpu_memcpy", "gpu_memset", "cuda_sync", "cuda_event", "cuda_runtime",
                "cuda_driver", "Runtime", "cpu_op", "user_annotation", "python_function", "ac2g", "");
        List<String> base = KinetoDocs.baseEvents(KinetoDocs.quote(KinetoDocs.KERNEL_NAME));
        // One event of each kind: thread name, step, CPU op, launch, kernel, Python frame,
        // record_param_comms, NCCL kernel, stream wait, memcpy, allocator sample.
        int[] which = {0, 4, 5, 6, 7, 10, 13, 16, 19, 21, 24};
        Checker c = new Checker(dir);
        c.publicWhenTaken = false; // the same read as the scanner path's when it takes the input
        c.trickle = false;
        int docs = 0;
        for (int i : which) {
            ObjectNode ev = (ObjectNode) m.readTree(base.get(i));
            Map<String, List<JsonNode>> variants = new LinkedHashMap<>();
            for (Iterator<String> it = ev.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                List<JsonNode> vs = new ArrayList<>(values);
                if (f.equals("ph")) {
                    phs.forEach(p -> vs.add(n.textNode(p)));
                } else if (f.equals("cat")) {
                    cats.forEach(p -> vs.add(n.textNode(p)));
                }
                variants.put(f, vs);
            }
            if (ev.get("args") instanceof ObjectNode args) {
                for (Iterator<String> it = args.fieldNames(); it.hasNext(); ) {
                    variants.put("args." + it.next(), values);
                }
            }
            for (Map.Entry<String, List<JsonNode>> v : variants.entrySet()) {
                List<JsonNode> vs = new ArrayList<>(v.getValue());
                vs.add(null); // removed
                for (JsonNode value : vs) {
                    ObjectNode copy = ev.deepCopy();
                    ObjectNode target = v.getKey().startsWith("args.") ? (ObjectNode) copy.get("args") : copy;
                    String field = v.getKey().startsWith("args.") ? v.getKey().substring(5) : v.getKey();
                    if (value == null) {
                        target.remove(field);
                    } else {
                        target.set(field, value);
                    }
                    String doc = withEvent(i, m.writeValueAsString(copy));
                    String name = "event " + i + " " + v.getKey() + "=" + (value == null ? "(removed)" : value);
                    boolean parallel = docs++ % 29 == 0;
                    String ref = c.check(name, utf8(doc), Expect.EITHER, parallel ? new int[] {300} : new int[0]);
                    if (ref.startsWith("source=") && !c.lastTook) {
                        c.failures.add(name + ": the Jackson path read it, the scanner path declined");
                    }
                }
            }
        }
        c.assertNoFailures("every field with every kind of value");
        assertTrue(docs > 1000 && c.accepted > 800, docs + " documents, " + c.summary());
    }

    // ------------------------------------------------------------------ truncation and damage

    /**
     * The base document cut at every 2nd byte of its headers and first events, every 9th byte
     * after, every byte near the end: the fast path must decline every cut before the final brace, and read(Path) must
     * give exactly Jackson's result (the partial trace with its truncation warning, or the same
     * error message).
     */
    @Test
    void truncatedAtManyBytePositions() throws IOException {
        byte[] full = utf8(base());
        int end = new String(full, StandardCharsets.UTF_8).lastIndexOf('}') + 1;
        int firstEvents = base().indexOf("\"ph\":\"X\"") + 100;
        Checker c = new Checker(dir);
        int truncatedTraces = 0;
        for (int cut = 0; cut < full.length; cut += cut > end - 20 ? 1 : cut < firstEvents ? 2 : 9) {
            byte[] doc = java.util.Arrays.copyOf(full, cut);
            String ref = c.checkModel("cut at " + cut, doc, cut < end ? Expect.UNSUPPORTED : Expect.ACCEPT,
                    cut % 41 == 0 ? new int[] {300} : new int[0]);
            if (ref.contains("truncated=true")) {
                truncatedTraces++;
            }
        }
        c.assertNoFailures("truncations");
        assertTrue(truncatedTraces > c.cases / 2, "most cuts give a partial trace: " + truncatedTraces + " of " + c.cases);
    }

    /** How many bytes a cut gzip file decompresses to before it runs out (by hand, one small read at a time). */
    private static int recoverable(byte[] cutGzip) {
        int n = 0;
        try (InputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(cutGzip))) {
            byte[] buf = new byte[512];
            for (int r; (r = in.read(buf)) > 0; ) {
                n += r;
            }
        } catch (IOException e) {
            // cut: what came out before counts
        }
        return n;
    }

    /** The same through gzip: cut compressed files, and a generated trace cut every few hundred bytes. */
    @Test
    void truncatedGzipAndGeneratedTraces() throws IOException {
        Checker c = new Checker(dir);
        byte[] json = utf8(base());
        byte[] gz = gzip(json);
        for (int cut = 0; cut < gz.length; cut += cut < 30 || cut > gz.length - 30 ? 1 : 4) {
            Path f = dir.resolve("cut" + cut + ".json.gz");
            Files.write(f, java.util.Arrays.copyOf(gz, cut));
            // A cut that leaves the JSON whole (in the 8-byte trailer, or in the last deflate bytes
            // once every byte of text but the closing "}\n" is out) may be read whole: every value
            // is there, and neither path needs what follows the last one.
            boolean whole = recoverable(java.util.Arrays.copyOf(gz, cut)) >= json.length - 2;
            c.checkFile("gzip cut at " + cut, f, null, whole ? Expect.EITHER : Expect.UNSUPPORTED);
            Files.delete(f);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KinetoScenarioWriter.write(BuiltinScenarios.get("seed-1ms-optimizer").withSyncEvents(true), out, "seed.pt.trace.json");
        byte[] full = out.toByteArray();
        int end = new String(full, StandardCharsets.ISO_8859_1).lastIndexOf('}') + 1;
        for (int cut = 1; cut < full.length; cut += 151) {
            byte[] doc = java.util.Arrays.copyOf(full, cut);
            c.checkModel("generated trace cut at " + cut, doc, cut < end ? Expect.UNSUPPORTED : Expect.ACCEPT,
                    cut % 5 == 0 ? new int[] {2048} : new int[0]);
        }
        // Damaged gzip: one flipped byte in the deflate data, at many places.
        for (int at = 10; at < gz.length; at += at < 20 || at > gz.length - 10 ? 1 : 9) {
            byte[] d = gz.clone();
            d[at] ^= 0x5a;
            Path f = dir.resolve("flip" + at + ".json.gz");
            Files.write(f, d);
            c.checkFile("gzip byte " + at + " flipped", f, null, Expect.EITHER);
            Files.delete(f);
        }
        c.assertNoFailures("truncated gzip and generated traces");
    }

    /** Gzip in several members (as concatenated files are), with a byte order mark: sequential parity. */
    @Test
    void multiMemberGzip() throws IOException {
        byte[] doc = bytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, base());
        Checker c = new Checker(dir);
        for (int parts : new int[] {2, 3, 7}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int k = 0; k < parts; k++) {
                out.write(gzip(java.util.Arrays.copyOfRange(doc, doc.length * k / parts, doc.length * (k + 1) / parts)));
            }
            Path f = Files.write(dir.resolve("members-" + parts + ".json.gz"), out.toByteArray());
            c.checkFile(parts + " gzip members", f, doc, Expect.ACCEPT);
        }
        c.assertNoFailures("multi-member gzip");
    }

    static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    // ------------------------------------------------------------------ the parallel cut

    /**
     * Names and args full of what the parallel scan takes for an event start ({@code }, {"},
     * {@code }, {}}), with chunks so small that most cuts land on one: the result must still be
     * Jackson's (through a resequenced read where a cut was wrong).
     */
    @Test
    void eventLikeTextInStringsAndArgsWithTinyChunks() throws IOException {
        List<String> e = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            e.add("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k" + i + "}, {\\\"ph\\\":\\\"X\\\"}, {}, {\",\"pid\":0,\"tid\":7,"
                    + "\"ts\":" + (1000 + i * 10) + ",\"dur\":5,\"args\":{\"stream\":7,\"correlation\":" + (900 + i)
                    + ",\"list\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fake\",\"ts\":1}, {}, {\"a\":{}}, {\"b\":[{}, {}]}]}}");
            e.add("{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":" + (990 + i * 10)
                    + ",\"dur\":2,\"args\":{\"correlation\":" + (900 + i) + ",\"x\":\"}, {\"}}");
            e.add("null");
            e.add("{}");
        }
        byte[] doc = utf8(KinetoDocs.doc(e));
        Checker c = new Checker(dir);
        int[] chunks = new int[40];
        for (int k = 0; k < chunks.length; k++) {
            chunks[k] = 16 + k * 29;
        }
        c.check("event-like text", doc, Expect.ACCEPT, chunks);
        // Pretty-printed, as Kineto writes it (so "}, {" cuts are the real boundaries too).
        byte[] pretty = utf8(new String(doc, StandardCharsets.UTF_8).replace("}, {", "},\n  {"));
        c.check("event-like text, pretty", pretty, Expect.ACCEPT, chunks);
        c.assertNoFailures("event-like text");
    }

    /** Well-formed, event-like text only in names: cuts that land on it must not change the events handed over. */
    @Test
    void theParallelEventStreamEqualsTheSequentialOneOrFallsBack() throws IOException {
        List<String> e = new ArrayList<>(KinetoDocs.baseEvents("\"}, {\\\"a\\\":1}, {}\""));
        for (int i = 0; i < 6; i++) {
            e.addAll(KinetoDocs.baseEvents("\"k" + i + "}, {\""));
        }
        byte[] doc = utf8(KinetoDocs.doc(e));
        Path f = Files.write(dir.resolve("p.json"), doc);
        List<String> sequential = KinetoParity.scannerEvents(new java.io.ByteArrayInputStream(doc), true);
        int resequenced = 0;
        for (int chunk = 8; chunk < doc.length; chunk = chunk * 3 / 2 + 1) {
            try {
                assertEquals(sequential, KinetoParity.parallelEvents(f, chunk, 2), "chunks of " + chunk);
            } catch (ParallelArrayScan.Resequence r) {
                resequenced++;
            }
        }
        assertTrue(resequenced > 0, "some cut landed inside a string");
        String ref = KinetoParity.jackson(f);
        for (int chunk = 8; chunk < doc.length; chunk = chunk * 2) {
            assertEquals(ref, KinetoParity.scanner(f, chunk, 3), "chunks of " + chunk);
        }
    }

    @Test
    void theParallelScanDeclinesWhatTheSequentialOneDeclines() throws IOException {
        String base = base();
        Checker c = new Checker(dir);
        c.check("trailing comma at the end of the array", utf8(base.replace("}}],\"traceName\"", "}},],\"traceName\"")),
                Expect.UNSUPPORTED, 64, 300);
        c.check("exponent in the last event", utf8(base.replace("\"v\":1}", "\"v\":1e0}")), Expect.UNSUPPORTED, 64, 300);
        c.check("invalid UTF-8 in the middle", replace(base, "aten::mm", new byte[] {(byte) 0xff}), Expect.UNSUPPORTED, 64, 300);
        c.check("array never closed", utf8(base.substring(0, base.indexOf("],\"traceName\""))), Expect.UNSUPPORTED, 64, 300);
        c.check("a number as the last element", utf8(base.replace("}}],\"traceName\"", "}},5],\"traceName\"")),
                Expect.UNSUPPORTED, 64, 300);
        c.assertNoFailures("parallel declines");
    }

    @Test
    void theDefaultFastPathEqualsJackson() throws IOException {
        // readWithScanner(Path), with its own choice of mode (sequential below 32 MiB), equals Jackson as well.
        Path small = Files.writeString(dir.resolve("s.json"), base());
        assertEquals(KinetoParity.jackson(small), outcome(() -> new KinetoReader().readWithScanner(small)));
        Path gz = Files.write(dir.resolve("s.json.gz"), gzip(utf8(base())));
        assertEquals(KinetoParity.jackson(gz).replace(gz.toString(), small.toString()),
                outcome(() -> new KinetoReader().readWithScanner(gz)).replace(gz.toString(), small.toString()));
        assertEquals(UNSUPPORTED, outcome(() -> new KinetoReader().readWithScanner(
                Files.writeString(dir.resolve("t.json"), base().substring(0, 500)))));
    }

    private static String withoutSource(String dump) {
        return dump.startsWith("source=") ? dump.substring(dump.indexOf('\n') + 1) : dump;
    }

    private static String outcome(KinetoParity.Read r) {
        return KinetoParity.outcome(r, true);
    }
}
