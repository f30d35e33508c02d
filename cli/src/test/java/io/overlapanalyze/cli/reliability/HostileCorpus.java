package io.overlapanalyze.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import io.overlapanalyze.synth.NsysScenarioWriter;
import io.overlapanalyze.synth.Scenario;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Generates the hostile-input corpus into a directory: every case is made by this code
 * from the project's own scenario generator (valid traces of every format, then broken on
 * purpose) or from scratch, never checked in. Deterministic (fixed seeds).
 *
 * <p>Each case says what the CLI must do: {@link Expect#ERROR} (exit 2, one line naming the file),
 * {@link Expect#ANALYSED} (exit 0, what is sound is analysed) or {@link Expect#EITHER} (a value of
 * the wrong type in one field: skipping the event with a warning and refusing the file with one
 * line are both acceptable; a crash, a hang or a stack trace are not).
 */
final class HostileCorpus {
    enum Expect { ERROR, ANALYSED, EITHER }

    record Case(String name, Path input, Expect expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Exact decimals in and out: a trace's "4458677000175.000" must not come back as "4.458677000175E12". */
    static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(com.fasterxml.jackson.core.JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));
    private static final String HOLE = "@@hostile@@";

    /** Values of the wrong type or range for any field: JSON text, some of it not strict JSON. */
    static final Map<String, String> HOSTILE = new LinkedHashMap<>();

    static {
        HOSTILE.put("string", "\"x\"");
        HOSTILE.put("empty-string", "\"\"");
        HOSTILE.put("null", "null");
        HOSTILE.put("array", "[1,2]");
        HOSTILE.put("object", "{\"a\":1}");
        HOSTILE.put("bool", "true");
        HOSTILE.put("negative", "-1");
        HOSTILE.put("zero", "0");
        HOSTILE.put("huge-double", "1e400");
        HOSTILE.put("beyond-64-bits", "123456789012345678901234567890");
        HOSTILE.put("negative-beyond-64-bits", "-99999999999999999999999");
        HOSTILE.put("nan", "NaN");
        HOSTILE.put("infinity", "-Infinity");
        HOSTILE.put("tiny", "1.5e-9");
        HOSTILE.put("numeric-string", "\"1e3\"");
        HOSTILE.put("control-chars", "\"a\\u0000b\u0001\"");
    }

    /** The whole matrix (every field × every value, every truncation point): {@code -Pfuzz}. */
    static final boolean FULL = Boolean.getBoolean("overlap.corpus.full");
    private static final int VALUES_PER_FIELD = 3;

    private final Path dir;
    private final List<Case> cases = new ArrayList<>();
    private int fieldCounter;

    private HostileCorpus(Path dir) {
        this.dir = dir;
    }

    /** The whole corpus, written below {@code dir}. */
    static List<Case> generate(Path dir) throws IOException {
        HostileCorpus c = new HostileCorpus(dir);
        c.generic();
        c.kinetoFieldTypes();
        c.kinetoHeader();
        c.kinetoSemantics();
        c.kinetoTruncations();
        c.gzip();
        c.nsys();
        c.ascend();
        c.fuzzFindings();
        c.parserLimits();
        return c.cases;
    }

    // ---------------------------------------------------------------- helpers

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return p;
    }

    private void add(String name, byte[] bytes, Expect expect) throws IOException {
        cases.add(new Case(name, write(name, bytes), expect));
    }

    private void add(String name, String text, Expect expect) throws IOException {
        add(name, text.getBytes(StandardCharsets.UTF_8), expect);
    }

    static Scenario scenario() {
        return BuiltinScenarios.get("seed-1ms-optimizer");
    }

    /** A valid Kineto trace from the scenario generator (66 events, about 20 kB). */
    static byte[] kinetoSeed() {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            KinetoScenarioWriter.write(scenario(), out, "seed.pt.trace.json");
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] ascendSeed() {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            AscendScenarioWriter.writeTimeline(scenario(), AscendScenarioWriter.plan(scenario()), out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path nsysSeed(Path file) throws IOException {
        NsysScenarioWriter.write(scenario(), file);
        return file;
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bos)) {
            gz.write(data);
        }
        return bos.toByteArray();
    }

    /** The tree with one value replaced by raw JSON text (which may be NaN or a 30-digit integer). */
    private static String withHole(JsonNode root, ObjectNode parent, String field, String raw) throws IOException {
        JsonNode old = parent.get(field);
        parent.put(field, HOLE);
        String text = JSON.writeValueAsString(root);
        if (old == null) {
            parent.remove(field);
        } else {
            parent.set(field, old);
        }
        return text.replace("\"" + HOLE + "\"", raw);
    }

    private static String without(JsonNode root, ObjectNode parent, String field) throws IOException {
        JsonNode old = parent.remove(field);
        String text = JSON.writeValueAsString(root);
        parent.set(field, old);
        return text;
    }

    // ---------------------------------------------------------------- generic garbage

    private void generic() throws IOException {
        add("generic/empty.json", new byte[0], Expect.ERROR);
        add("generic/whitespace.json", " \n\t\r\n   ", Expect.ERROR);
        add("generic/bom-only.json", new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, Expect.ERROR);
        SplittableRandom r = new SplittableRandom(9);
        int[] sizes = {1, 7, 100, 4096, 65_536, 300_000};
        for (int s : sizes) {
            byte[] b = new byte[s];
            r.nextBytes(b);
            add("generic/random-" + s + ".bin", b, Expect.ERROR);
            byte[] obj = b.clone();
            obj[0] = '{';
            add("generic/random-object-" + s + ".json", obj, Expect.ERROR);
            byte[] arr = b.clone();
            arr[0] = '[';
            add("generic/random-array-" + s + ".json", arr, Expect.ERROR);
        }
        String[] wrongShape = {"null", "42", "\"a string\"", "true", "[]", "{}", "[{}]", "[[[]]]", "[1,2,3]",
            "[null]", "{\"traceEvents\":{}}", "{\"traceEvents\":null}", "{\"traceEvents\":\"x\"}",
            "{\"traceEvents\":[1,2]}", "{\"traceEvents\":[[]]}", "{\"traceEvents\":[\"x\"]}",
            "{\"name\":\"package\",\"version\":\"1.0\",\"dependencies\":{}}", "{\"ph\":\"X\"}",
            "{\"schemaVersion\":1,\"ranks\":[]}", "{\"traceEvents\":[],\"traceEvents\":[]}", "{\"traceEvents\":[{}]}",
            "{\"traceEvents\":[null,null]}", "{\"traceEvents\":[]}garbage", "{\"traceEvents\":[]}{\"traceEvents\":[]}",
            "[{\"ph\":\"X\"}]", "[{\"name\":\"x\",\"ts\":\"1\",\"pid\":\"a\"}]"};
        for (int i = 0; i < wrongShape.length; i++) {
            add("generic/wrong-shape-" + i + ".json", wrongShape[i], Expect.EITHER);
        }
        // Not JSON, though it starts like it.
        add("generic/xml.json", "<?xml version=\"1.0\"?><trace/>", Expect.ERROR);
        add("generic/csv.json", "ts,dur,name\n1,2,k\n", Expect.ERROR);
        add("generic/python-repr.json", "{'traceEvents': []}", Expect.ERROR);
        add("generic/utf16.json", withBom16("{\"traceEvents\":[]}"), Expect.EITHER);
        add("generic/nul-bytes.json", new byte[4096], Expect.ERROR);
        // Resource exhaustion: nesting, string and number lengths beyond the parser's limits.
        add("generic/deep-arrays.json", "[".repeat(200_000), Expect.ERROR);
        add("generic/deep-objects-in-args.json", "{\"traceEvents\":[{\"ph\":\"X\",\"args\":"
                + "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000) + "}]}", Expect.EITHER);
        add("generic/deep-header-key.json", "{\"deviceProperties\":" + "[".repeat(100_000) + "]".repeat(100_000)
                + ",\"traceEvents\":[]}", Expect.EITHER);
        String seed = new String(kinetoSeed(), StandardCharsets.UTF_8);
        add("generic/long-name-21M.json", seed.replaceFirst("\"ProfilerStep#10\"",
                "\"" + "n".repeat(21_000_000) + "\""), Expect.EITHER);
        add("generic/long-key-1M.json", seed.replaceFirst("\"traceName\"", "\"" + "k".repeat(1_000_000) + "\""),
                Expect.EITHER);
        add("generic/number-2000-digits.json", seed.replaceFirst("\"dur\"\\s*:\\s*[0-9.]+", "\"dur\":" + "9".repeat(2000)),
                Expect.EITHER);
        // Invalid UTF-8 and raw control characters in names and keys (profiler bugs, pytorch#130622).
        byte[] bytes = seed.getBytes(StandardCharsets.UTF_8);
        add("generic/invalid-utf8-in-name.json", replaceFirst(bytes, "SGD.step", new byte[] {'S', (byte) 0xff,
            (byte) 0xfe, (byte) 0xc3, '(', (byte) 0xed, (byte) 0xa0, (byte) 0x80}), Expect.ANALYSED);
        add("generic/invalid-utf8-in-key.json", replaceFirst(bytes, "\"correlation\"", new byte[] {'"', (byte) 0xc0,
            (byte) 0xaf, '"'}), Expect.ANALYSED);
        add("generic/control-chars-in-name.json", seed.replaceFirst("SGD\\.step", "SGD\u0001\u0007\u001f.step\t\n"),
                Expect.ANALYSED);
    }

    private static byte[] withBom16(String s) {
        byte[] body = s.getBytes(StandardCharsets.UTF_16LE);
        byte[] out = new byte[body.length + 2];
        out[0] = (byte) 0xff;
        out[1] = (byte) 0xfe;
        System.arraycopy(body, 0, out, 2, body.length);
        return out;
    }

    private static byte[] replaceFirst(byte[] data, String what, byte[] with) {
        byte[] w = what.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i + w.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + w.length, w, 0, w.length)) {
                byte[] out = new byte[data.length - w.length + with.length];
                System.arraycopy(data, 0, out, 0, i);
                System.arraycopy(with, 0, out, i, with.length);
                System.arraycopy(data, i + w.length, out, i + with.length, data.length - i - w.length);
                return out;
            }
        }
        throw new IllegalArgumentException(what + " not found");
    }

    // ---------------------------------------------------------------- Kineto: every field, every wrong type

    /**
     * One representative of each kind of event the reader uses (metadata, step and optimizer
     * annotations, CPU ops, record_param_comms, runtime launches, compute and NCCL kernels, flows,
     * instants), and for each of its fields and args: every value of {@link #HOSTILE}, and the field
     * missing.
     */
    private void kinetoFieldTypes() throws IOException {
        JsonNode root = JSON.readTree(kinetoSeed());
        ArrayNode events = (ArrayNode) root.get("traceEvents");
        Map<String, ObjectNode> reps = new LinkedHashMap<>();
        for (JsonNode e : events) {
            String name = e.path("name").asText();
            String kind = e.path("ph").asText() + "/" + e.path("cat").asText("-") + "/"
                    + (name.startsWith("nccl") ? "nccl" : name.startsWith("record_param_comms") ? "rpc"
                    : name.startsWith("ProfilerStep") ? "step" : name.startsWith("Optimizer.step") ? "opt"
                    : name.equals("thread_name") || name.equals("process_name") ? name : "other");
            reps.putIfAbsent(kind, (ObjectNode) e);
        }
        int n = 0;
        for (Map.Entry<String, ObjectNode> rep : reps.entrySet()) {
            ObjectNode ev = rep.getValue();
            String kind = rep.getKey().replaceAll("[^A-Za-z0-9_]+", "_");
            for (String field : names(ev)) {
                fieldCases(root, ev, field, "kineto-types/" + kind + "." + field);
                n++;
            }
            if (ev.get("args") instanceof ObjectNode args) {
                for (String field : names(args)) {
                    fieldCases(root, args, field, "kineto-types/" + kind + ".args." + field.replace(' ', '_'));
                    n++;
                }
            }
        }
        if (n < 40) {
            throw new IllegalStateException("the seed trace has too few fields to mutate: " + n);
        }
    }

    private static List<String> names(ObjectNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /**
     * Every hostile value for this field with {@code overlap.corpus.full=true} (the {@code -Pfuzz}
     * profile); otherwise {@link #VALUES_PER_FIELD} of them, rotating from field to field so that
     * every value still meets every kind of event, and the suite stays fast.
     */
    private void fieldCases(JsonNode root, ObjectNode parent, String field, String prefix) throws IOException {
        fieldCases(root, parent, field, prefix, ".json");
    }

    private void fieldCases(JsonNode root, ObjectNode parent, String field, String prefix, String suffix)
            throws IOException {
        List<Map.Entry<String, String>> all = new ArrayList<>(HOSTILE.entrySet());
        List<Map.Entry<String, String>> values = new ArrayList<>();
        if (FULL) {
            values = all;
        } else {
            for (int t = 0; t < VALUES_PER_FIELD; t++) {
                values.add(all.get((fieldCounter * VALUES_PER_FIELD + t) % all.size()));
            }
            fieldCounter++;
        }
        for (Map.Entry<String, String> v : values) {
            add(prefix + "=" + v.getKey() + suffix, withHole(root, parent, field, v.getValue()), Expect.EITHER);
        }
        add(prefix + "=missing" + suffix, without(root, parent, field), Expect.EITHER);
    }

    private void kinetoHeader() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(kinetoSeed());
        for (String field : List.of("baseTimeNanoseconds", "distributedInfo", "schemaVersion", "deviceProperties",
                "traceName")) {
            fieldCases(root, root, field, "kineto-header/" + field);
        }
        ObjectNode dist = (ObjectNode) root.get("distributedInfo");
        for (String field : names(dist)) {
            fieldCases(root, dist, field, "kineto-header/distributedInfo." + field);
        }
        add("kineto-header/base-near-max.json", withHole(root, root, "baseTimeNanoseconds", "9223372036854775000"),
                Expect.EITHER);
        add("kineto-header/base-negative.json", withHole(root, root, "baseTimeNanoseconds", "-9223372036854775000"),
                Expect.EITHER);
    }

    // ---------------------------------------------------------------- Kineto: unsound timelines

    /** Things profilers really write: all analysed (what is sound), none refused. */
    private void kinetoSemantics() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(kinetoSeed());
        ArrayNode events = (ArrayNode) root.get("traceEvents");

        ArrayNode dup = events.deepCopy();
        for (JsonNode e : events) {
            dup.add(e.deepCopy());
        }
        add("kineto-semantics/every-event-twice.json", withEvents(root, dup), Expect.ANALYSED);

        add("kineto-semantics/zero-durations.json", withEvents(root, mapKernels(events, (k, i) -> k.put("dur", 0))),
                Expect.ANALYSED);
        add("kineto-semantics/negative-durations.json",
                withEvents(root, mapKernels(events, (k, i) -> k.put("dur", k.get("dur").decimalValue().negate()))), Expect.ANALYSED);
        add("kineto-semantics/one-kernel-ends-before-it-starts.json",
                withEvents(root, mapKernels(events, (k, i) -> {
                    if (i == 1) {
                        k.put("dur", new BigDecimal("-5.0"));
                    }
                })), Expect.ANALYSED);
        add("kineto-semantics/overlapping-on-one-stream.json", withEvents(root, mapKernels(events, (k, i) -> {
            k.put("ts", k.get("ts").decimalValue().subtract(BigDecimal.valueOf(i * 700L))); // later kernels slide under earlier ones
            k.with("args").put("stream", 7);
            k.put("tid", 7);
        })), Expect.ANALYSED);
        add("kineto-semantics/all-at-the-same-instant.json", withEvents(root, mapKernels(events,
                (k, i) -> k.put("ts", new BigDecimal("4458677002000.0")))), Expect.ANALYSED);
        ArrayNode shuffled = events.deepCopy();
        List<JsonNode> list = new ArrayList<>();
        shuffled.forEach(list::add);
        java.util.Collections.shuffle(list, new java.util.Random(3));
        ArrayNode out = JSON.createArrayNode();
        list.forEach(out::add);
        add("kineto-semantics/out-of-order.json", withEvents(root, out), Expect.ANALYSED);
        ArrayNode reversed = JSON.createArrayNode();
        for (int i = events.size() - 1; i >= 0; i--) {
            reversed.add(events.get(i));
        }
        add("kineto-semantics/reversed.json", withEvents(root, reversed), Expect.ANALYSED);
        ArrayNode trailing = events.deepCopy();
        for (int i = 0; i < 3; i++) {
            trailing.addObject();
        }
        add("kineto-semantics/trailing-empty-events.json", withEvents(root, trailing), Expect.ANALYSED);
        ArrayNode noRuntime = JSON.createArrayNode();
        for (JsonNode e : events) {
            if (!"cuda_runtime".equals(e.path("cat").asText())) {
                noRuntime.add(e);
            }
        }
        add("kineto-semantics/no-launches.json", withEvents(root, noRuntime), Expect.ANALYSED);
        ArrayNode noKernels = JSON.createArrayNode();
        for (JsonNode e : events) {
            if (!"kernel".equals(e.path("cat").asText())) {
                noKernels.add(e);
            }
        }
        add("kineto-semantics/no-device-work.json", withEvents(root, noKernels), Expect.ANALYSED);
        ArrayNode stepTwice = events.deepCopy();
        for (JsonNode e : events) {
            if (e.path("name").asText().startsWith("ProfilerStep")) {
                stepTwice.add(e.deepCopy()); // the same step annotation twice, overlapping itself
            }
        }
        add("kineto-semantics/overlapping-steps.json", withEvents(root, stepTwice), Expect.ANALYSED);
        add("kineto-semantics/string-times.json", withEvents(root, mapKernels(events,
                (k, i) -> k.put("ts", k.get("ts").asText()))), Expect.EITHER);
        add("kineto-semantics/integer-times.json", withEvents(root, mapKernels(events,
                (k, i) -> k.put("ts", k.get("ts").asLong()))), Expect.ANALYSED);
        add("kineto-semantics/many-decimals.json", JSON.writeValueAsString(root)
                .replace(".0,", ".000000000000000000000001,"), Expect.ANALYSED);
        add("kineto-semantics/trailing-commas.json", JSON.writeValueAsString(root).replace("}]", "},]"),
                Expect.ANALYSED);
    }

    private interface KernelEdit {
        void apply(ObjectNode kernel, int index);
    }

    private static ArrayNode mapKernels(ArrayNode events, KernelEdit edit) {
        ArrayNode out = events.deepCopy();
        int i = 0;
        for (JsonNode e : out) {
            if ("kernel".equals(e.path("cat").asText())) {
                edit.apply((ObjectNode) e, i++);
            }
        }
        return out;
    }

    private static String withEvents(ObjectNode root, ArrayNode events) throws IOException {
        ObjectNode copy = root.deepCopy();
        copy.set("traceEvents", events);
        return JSON.writeValueAsString(copy);
    }

    // ---------------------------------------------------------------- truncations

    /**
     * The seed cut at structural points: after every 3rd structural character (so every kind of
     * point appears: inside the header, between events, inside an event, inside a string, after
     * the array, before the closing brace). The dedicated truncation test in trace-formats cuts at
     * every single one; this runs them through the whole CLI.
     */
    private void kinetoTruncations() throws IOException {
        byte[] seed = kinetoSeed();
        int k = 0;
        for (int i = 1; i < seed.length; i++) {
            byte b = seed[i - 1];
            if (b == '{' || b == '}' || b == '[' || b == ']' || b == ',' || b == ':' || b == '"') {
                if (k++ % (FULL ? 1 : 20) == 0) {
                    add("kineto-truncated/at-" + i + ".json", Arrays.copyOf(seed, i), Expect.EITHER);
                }
            }
        }
    }

    private void gzip() throws IOException {
        byte[] seed = kinetoSeed();
        byte[] gz = gzip(seed);
        add("gzip/valid.json.gz", gz, Expect.ANALYSED);
        for (int cut : new int[] {1, 2, 5, 10, 11, 20, gz.length / 3, gz.length / 2, gz.length - 9, gz.length - 1}) {
            add("gzip/cut-at-" + cut + ".json.gz", Arrays.copyOf(gz, cut), Expect.EITHER);
        }
        byte[] badCrc = gz.clone();
        badCrc[gz.length - 6] ^= 0x55;
        add("gzip/bad-crc.json.gz", badCrc, Expect.EITHER);
        byte[] flipped = gz.clone();
        flipped[gz.length / 2] ^= 0x10;
        add("gzip/bit-flip.json.gz", flipped, Expect.EITHER);
        byte[] trailingGarbage = Arrays.copyOf(gz, gz.length + 100);
        new SplittableRandom(4).nextBytes(trailingGarbage);
        System.arraycopy(gz, 0, trailingGarbage, 0, gz.length);
        add("gzip/trailing-garbage.json.gz", trailingGarbage, Expect.EITHER);
        byte[] twoMembers = new byte[gz.length * 2];
        System.arraycopy(gz, 0, twoMembers, 0, gz.length);
        System.arraycopy(gz, 0, twoMembers, gz.length, gz.length);
        add("gzip/two-members.json.gz", twoMembers, Expect.EITHER);
        add("gzip/gzip-of-garbage.json.gz", gzip("not a trace at all".getBytes(StandardCharsets.US_ASCII)),
                Expect.ERROR);
        add("gzip/gzip-of-empty.json.gz", gzip(new byte[0]), Expect.ERROR);
        add("gzip/gzip-of-gzip.json.gz", gzip(gz), Expect.ERROR);
        add("gzip/magic-only.json.gz", new byte[] {0x1f, (byte) 0x8b}, Expect.ERROR);
    }

    // ---------------------------------------------------------------- beyond the JSON parser's default limits

    /**
     * Sound files with a value beyond Jackson's default limits (nesting 1,000, strings of 20 M
     * characters), and a gzip file cut with under 64 KiB left to decompress. Each is analysed in
     * full ({@code parser-limits/}: no "truncated" warning) or as far as it goes (the cut gzip).
     */
    private void parserLimits() throws IOException {
        String kineto = new String(kinetoSeed(), StandardCharsets.UTF_8);
        String deep = "\"deep\":" + "[".repeat(5_000) + "]".repeat(5_000);
        add("parser-limits/kineto-args-nested-5000.json", insertIntoArgs(kineto, deep), Expect.ANALYSED);
        add("parser-limits/kineto-args-string-21M.json",
                insertIntoArgs(kineto, "\"long\":\"" + "s".repeat(21_000_000) + "\""), Expect.ANALYSED);
        String ascend = new String(ascendSeed(), StandardCharsets.UTF_8);
        add("parser-limits/ascend-args-nested-5000/trace_view.json", insertIntoArgs(ascend, deep), Expect.ANALYSED);
        byte[] gz = gzip(kinetoSeed());
        add("kineto-truncated/gzip-cut-in-the-middle-under-64KiB.json.gz", Arrays.copyOf(gz, gz.length / 2),
                Expect.ANALYSED);
        add("kineto-truncated/gzip-without-trailer.json.gz", Arrays.copyOf(gz, gz.length - 8), Expect.EITHER);
    }

    /** {@code text} with {@code member} added first in the third {@code args} object. */
    private static String insertIntoArgs(String text, String member) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"args\"\\s*:\\s*\\{").matcher(text);
        for (int i = 0; i < 3; i++) {
            if (!m.find()) {
                throw new IllegalStateException("the seed has fewer than 3 args objects");
            }
        }
        boolean empty = text.substring(m.end()).stripLeading().startsWith("}");
        return text.substring(0, m.end()) + member + (empty ? "" : ",") + text.substring(m.end());
    }

    // ---------------------------------------------------------------- what fuzzing found (docs/RELIABILITY.md)

    private void fuzzFindings() throws IOException {
        String ascend = new String(ascendSeed(), StandardCharsets.UTF_8);
        if (!ascend.contains("\"data_type\"")) {
            throw new IllegalStateException("the Ascend seed changed: no data_type to break");
        }
        // RankAssembler.dtypeBytes: Integer.parseInt overflow, exit 3.
        add("fuzz-findings/ascend-data-type-beyond-64-bits/trace_view.json",
                ascend.replaceAll("\"data_type\"\\s*:\\s*\"[^\"]*\"", "\"data_type\":123456789012345678901234567890"),
                Expect.ANALYSED);
        add("fuzz-findings/ascend-data-type-huge-string/trace_view.json",
                ascend.replaceAll("\"data_type\"\\s*:\\s*\"[^\"]*\"", "\"data_type\":\"FLOAT99999999999999\""),
                Expect.ANALYSED);
        // KinetoReader quoted a "ts"/"dur" string holding a newline: a two-line error.
        String kineto = new String(kinetoSeed(), StandardCharsets.UTF_8);
        for (String field : List.of("ts", "dur")) {
            add("fuzz-findings/kineto-" + field + "-string-with-newline.json", kineto.replaceAll("\"" + field
                    + "\"\\s*:\\s*([0-9.]+)", "\"" + field + "\":\"$1,\\\\n    \\\\u0007\""), Expect.ERROR);
            add("fuzz-findings/kineto-" + field + "-string-with-raw-newline.json", kineto.replaceAll("\"" + field
                    + "\"\\s*:\\s*([0-9.]+)", "\"" + field + "\":\"$1,\n    \u0007\""), Expect.ERROR);
        }
    }

    // ---------------------------------------------------------------- Nsight SQLite

    private void nsys() throws IOException {
        Path seed = nsysSeed(dir.resolve("nsys/seed.sqlite"));
        cases.add(new Case("nsys/seed.sqlite", seed, Expect.ANALYSED));
        byte[] db = Files.readAllBytes(seed);
        int page = ((db[16] & 0xff) << 8) | (db[17] & 0xff);
        if (page == 1) {
            page = 65_536;
        }
        sql("nsys/not-an-export.sqlite", null, "CREATE TABLE notes (id INTEGER, body TEXT)",
                "INSERT INTO notes VALUES (1, 'hello')");
        sql("nsys/no-tables.sqlite", null, "PRAGMA user_version = 7");
        add("nsys/header-only.sqlite", Arrays.copyOf(db, 100), Expect.ERROR);
        add("nsys/magic-and-garbage.sqlite", garbageAfterMagic(4096), Expect.ERROR);
        for (int pages : new int[] {1, 2, db.length / page / 2, db.length / page - 1}) {
            add("nsys/cut-at-page-" + pages + ".sqlite", Arrays.copyOf(db, pages * page), Expect.EITHER);
        }
        add("nsys/cut-mid-page.sqlite", Arrays.copyOf(db, db.length - page / 2), Expect.EITHER);
        SplittableRandom r = new SplittableRandom(5);
        for (int p = 1; p < db.length / page; p++) {
            byte[] corrupt = db.clone();
            byte[] noise = new byte[page];
            r.nextBytes(noise);
            System.arraycopy(noise, 0, corrupt, p * page, page);
            add("nsys/corrupt-page-" + p + ".sqlite", corrupt, Expect.EITHER);
            byte[] zeroed = db.clone();
            Arrays.fill(zeroed, p * page, (p + 1) * page, (byte) 0);
            add("nsys/zeroed-page-" + p + ".sqlite", zeroed, Expect.EITHER);
        }
        byte[] badHeader = db.clone();
        badHeader[16] = 0x03; // page size 0x03?? is not a power of two
        add("nsys/bad-page-size.sqlite", badHeader, Expect.EITHER);

        // Wrong types and unsound values in every column the reader uses.
        String[][] columns = {
            {"CUPTI_ACTIVITY_KIND_KERNEL", "start", "end", "deviceId", "streamId", "correlationId", "globalPid",
                "demangledName", "shortName"},
            {"CUPTI_ACTIVITY_KIND_RUNTIME", "start", "end", "eventClass", "globalTid", "correlationId", "nameId"},
            {"NVTX_EVENTS", "start", "end", "eventType", "text", "globalTid", "textId", "domainId"},
            {"StringIds", "id", "value"},
            {"TARGET_INFO_SESSION_START_TIME", "utcEpochNs"},
            {"META_DATA_EXPORT", "name", "value"},
            {"ThreadNames", "nameId", "globalTid"},
            {"PROCESSES", "globalPid", "pid", "name"},
        };
        String[] values = FULL ? new String[] {"'x'", "NULL", "-1", "0", "9223372036854775807",
            "-9223372036854775808", "1e300", "X'00ff'"} : new String[] {"'x'", "NULL", "-1", "9223372036854775807",
            "X'00ff'"};
        for (String[] table : columns) {
            for (int c = 1; c < table.length; c++) {
                for (String v : values) {
                    String name = "nsys-types/" + table[0] + "." + table[c] + "=" + v.replaceAll("[^A-Za-z0-9-]", "_")
                            + ".sqlite";
                    // Every other row, so that some rows stay sound.
                    sql(name, seed, "UPDATE " + table[0] + " SET " + table[c] + " = " + v + " WHERE rowid % 2 = 0");
                }
            }
        }
        sql("nsys-semantics/kernels-end-before-start.sqlite", seed,
                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid % 2 = 0");
        sql("nsys-semantics/duplicate-kernels.sqlite", seed,
                "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL");
        sql("nsys-semantics/no-strings.sqlite", seed, "DELETE FROM StringIds");
        sql("nsys-semantics/no-kernels.sqlite", seed, "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL");
        sql("nsys-semantics/no-runtime.sqlite", seed, "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME");
        sql("nsys-semantics/no-metadata.sqlite", seed, "DROP TABLE META_DATA_EXPORT");
        sql("nsys-semantics/future-schema.sqlite", seed, "UPDATE META_DATA_EXPORT SET value = '99.0.0'"
                + " WHERE name LIKE '%ersion%'");
        sql("nsys-semantics/kernel-table-without-start.sqlite", seed,
                "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN start");
        sql("nsys-semantics/overlapping-on-one-stream.sqlite", seed,
                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET streamId = 7, start = start - (rowid * 700000)");

        // Damaged rows: skipped with a counted warning, never read as 0; missing names said, not zeros.
        sql("nsys-semantics/kernel-start-text.sqlite", seed, Expect.ANALYSED,
                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'n/a' WHERE rowid = 3");
        sql("nsys-semantics/kernel-end-text.sqlite", seed, Expect.ANALYSED,
                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = '12 ms' WHERE rowid % 5 = 0");
        sql("nsys-semantics/no-string-table.sqlite", seed, Expect.ANALYSED, "DROP TABLE StringIds");
        sql("nsys-semantics/step-range-without-end.sqlite", seed, Expect.ANALYSED,
                "UPDATE NVTX_EVENTS SET end = NULL WHERE rowid = (SELECT min(rowid) FROM NVTX_EVENTS"
                        + " WHERE text LIKE 'ProfilerStep%')");
        // SQLite bombs: computed rows where the reader expects stored ones are refused at once.
        sql("nsys-sqlite/kernel-table-is-a-recursive-view.sqlite", seed, Expect.ERROR,
                "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL",
                "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE r(start, end, deviceId, contextId, streamId,"
                        + " correlationId, globalPid, shortName) AS (SELECT 0, 1, 0, 1, 7, 1, 0, 1 UNION ALL SELECT"
                        + " start + 1, end + 1, deviceId, contextId, streamId, correlationId + 1, globalPid, shortName"
                        + " FROM r) SELECT * FROM r");
        sql("nsys-sqlite/string-table-is-a-virtual-table.sqlite", seed, Expect.ERROR, "DROP TABLE StringIds",
                "CREATE VIRTUAL TABLE StringIds USING fts5(id, value)");
        // A writer's state the reader must apply, not ignore: committed rows in a -wal, a hot -journal.
        walSnapshot("nsys-sqlite/committed-wal.sqlite", seed);
        hotJournalSnapshot("nsys-sqlite/hot-journal.sqlite", seed);
    }

    /** A copy of {@code base} with half its kernels deleted in a committed write-ahead log, not checkpointed. */
    private void walSnapshot(String name, Path base) throws IOException {
        Path work = dir.resolve(name + ".writer");
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.copy(base, work);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + work.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA wal_autocheckpoint=0");
            st.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 2 = 0");
            Files.copy(work, p);
            Files.copy(Path.of(work + "-wal"), Path.of(p + "-wal"));
        } catch (SQLException e) {
            throw new IOException(e);
        }
        cases.add(new Case(name, p, Expect.ANALYSED));
    }

    /** A copy of {@code base} in the middle of a write: changed pages in the file, the originals in a hot journal. */
    private void hotJournalSnapshot(String name, Path base) throws IOException {
        Path work = dir.resolve(name + ".writer");
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.copy(base, work);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + work.toAbsolutePath());
             Statement st = c.createStatement()) {
            st.execute("PRAGMA cache_size=1");
            c.setAutoCommit(false);
            st.execute("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL");
            Files.copy(work, p);
            Files.copy(Path.of(work + "-journal"), Path.of(p + "-journal"));
            c.rollback();
        } catch (SQLException e) {
            throw new IOException(e);
        }
        cases.add(new Case(name, p, Expect.ANALYSED));
    }

    private byte[] garbageAfterMagic(int size) {
        byte[] b = new byte[size];
        new SplittableRandom(6).nextBytes(b);
        byte[] magic = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(magic, 0, b, 0, magic.length);
        return b;
    }

    /** A copy of {@code base} (or a new database) changed by SQL statements. */
    private void sql(String name, Path base, String... statements) throws IOException {
        sql(name, base, base == null ? Expect.ERROR : Expect.EITHER, statements);
    }

    private void sql(String name, Path base, Expect expect, String... statements) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.deleteIfExists(p);
        if (base != null) {
            Files.copy(base, p);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p.toAbsolutePath());
             Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        } catch (SQLException e) {
            // SQLite itself refuses this value here (NOT NULL, INTEGER PRIMARY KEY, UNIQUE): no real
            // export can hold it either, so there is no case to make.
            Files.deleteIfExists(p);
            return;
        }
        cases.add(new Case(name, p, expect));
    }

    // ---------------------------------------------------------------- Ascend

    private void ascend() throws IOException {
        byte[] seed = ascendSeed();
        String text = new String(seed, StandardCharsets.UTF_8);
        add("ascend/trace_view.json", seed, Expect.ANALYSED);
        JsonNode root = JSON.readTree(seed);
        ObjectNode task = null;
        ObjectNode meta = null;
        for (JsonNode e : root) {
            if (task == null && "X".equals(e.path("ph").asText()) && e.get("ts") != null && e.get("dur") != null) {
                task = (ObjectNode) e;
            }
            if (meta == null && "M".equals(e.path("ph").asText())) {
                meta = (ObjectNode) e;
            }
        }
        for (String field : List.of("ts", "dur", "pid", "tid", "name", "args", "ph")) {
            fieldCases(root, task, field, "ascend-types/task." + field, "/trace_view.json");
        }
        for (String field : List.of("name", "pid", "tid", "args")) {
            fieldCases(root, meta, field, "ascend-types/meta." + field, "/trace_view.json");
        }
        if (!FULL) { // "ts" that are not numbers, every kind, whatever the rotation gave
            for (Map.Entry<String, String> v : HOSTILE.entrySet()) {
                add("ascend-types/task.ts=" + v.getKey() + "!/trace_view.json", withHole(root, task, "ts", v.getValue()),
                        Expect.EITHER);
            }
        }
        // Every "ts" not a number.
        add("ascend-types/all-ts-garbage/trace_view.json", text.replaceAll("\"ts\": ?\"[^\"]*\"", "\"ts\":\"1.2.3\""),
                Expect.ERROR);
        int k = 0;
        for (int i = 1; i < seed.length; i++) {
            byte b = seed[i - 1];
            if ((b == '{' || b == '}' || b == ',' || b == '"' || b == ':') && k++ % (FULL ? 1 : 60) == 0) {
                add("ascend-truncated/at-" + i + "/trace_view.json", Arrays.copyOf(seed, i), Expect.EITHER);
            }
        }
        add("ascend/object-not-array.json", "{\"traceEvents\": " + text + "}", Expect.EITHER);
        Path capture = dir.resolve("ascend/empty_ascend_pt");
        Files.createDirectories(capture.resolve("ASCEND_PROFILER_OUTPUT"));
        Files.writeString(capture.resolve("profiler_info_0.json"), "{\"rank_id\": 0}");
        cases.add(new Case("ascend/capture-without-timeline", capture, Expect.ERROR));
        Path broken = dir.resolve("ascend/broken_ascend_pt");
        Files.createDirectories(broken.resolve("ASCEND_PROFILER_OUTPUT"));
        Files.writeString(broken.resolve("ASCEND_PROFILER_OUTPUT/trace_view.json"), "[{\"ph\":\"M\",\"na");
        cases.add(new Case("ascend/capture-with-truncated-timeline", broken, Expect.ERROR));
    }
}
