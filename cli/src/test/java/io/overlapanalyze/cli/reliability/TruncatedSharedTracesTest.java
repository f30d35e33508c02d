package io.overlapanalyze.cli.reliability;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.formats.input.InputStreams;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A truncated copy of each shared real trace is analysed up to the
 * truncation, with a warning, and gives the full trace's numbers for the complete steps before it.
 * The originals are never modified: each is copied to a temporary directory and the copy is cut.
 *
 * <p><b>The cut time.</b> {@code T} = the device end of the second-to-last complete step of the full
 * analysis, plus 1 ns. Every device interval of the steps that end before {@code T} starts before
 * it, and every host event those steps need (launch, CPU op, step annotation) comes before its
 * device work, so those steps must come out identical (the JSON of each step, markers, attribution
 * and notes included). The later steps are cut: the last one is reported partial.
 *
 * <ul>
 *   <li><b>Kineto JSON</b> (plain or gzip): the decompressed JSON is cut in the middle of the event
 *       that follows (in file order) the last event with {@code ts < T}: all events before {@code T}
 *       are kept, the array stops inside an event of the last step. Expected: exit 0, a "truncated"
 *       warning naming where it stopped, the last step partial, earlier steps equal.</li>
 *   <li><b>Ascend {@code trace_view.json}</b> (the torch_npu text capture, copied whole): the same
 *       cut of the bare array.</li>
 *   <li><b>Nsight SQLite</b>: cutting a database file is not truncation but corruption (SQLite
 *       pages reference each other; a cut file has a wrong page count and dangling pointers). The
 *       analogue of a capture that stopped early is a writable copy whose kernel rows starting at or
 *       after {@code T} are deleted ({@code DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start >= T}):
 *       the launches of those kernels have no device work, so the last steps are partial, and the
 *       earlier steps must be equal. Separately, a copy cut at a page boundary in the middle of the
 *       file must give exit 0 or one line with exit 2 (what SQLite can still read, or a clear error),
 *       never a crash.</li>
 * </ul>
 * Traces with fewer than two complete steps (no step annotations, or one step) are still cut in the
 * middle and must be analysed with the warning; there is nothing earlier to compare.
 */
class TruncatedSharedTracesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static Path shared() {
        String prop = System.getProperty("overlap.sharedTraces");
        Path dir = prop != null ? Path.of(prop) : Path.of("..", "..", "shared", "traces");
        Assumptions.assumeTrue(Files.isDirectory(dir), "shared real traces not found at "
                + dir.toAbsolutePath().normalize() + ": skipping the truncated-copy checks (CI has them)");
        return dir;
    }

    private static List<Path> list(Path dir, String glob) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            var m = dir.getFileSystem().getPathMatcher("glob:" + glob);
            return s.filter(p -> m.matches(p.getFileName())).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> kineto() throws IOException {
        Path root = shared();
        List<DynamicTest> tests = new ArrayList<>();
        for (Path p : list(root.resolve("kineto"), "*.{json,json.gz}")) {
            tests.add(DynamicTest.dynamicTest(p.getFileName().toString(), () -> kinetoOne(p)));
        }
        Assumptions.assumeFalse(tests.isEmpty(), "no shared Kineto traces");
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> ascendText() throws IOException {
        Path root = shared().resolve("ascend");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path capture : list(root, "torch_npu_*")) {
            for (Path rank : list(capture, "*_ascend_pt")) {
                Path tv = rank.resolve("ASCEND_PROFILER_OUTPUT").resolve("trace_view.json");
                if (Files.isRegularFile(tv)) {
                    tests.add(DynamicTest.dynamicTest(capture.getFileName() + "/" + rank.getFileName(),
                            () -> ascendOne(rank)));
                }
            }
        }
        Assumptions.assumeFalse(tests.isEmpty(), "no shared Ascend text captures");
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> nsys() throws IOException {
        Path root = shared();
        List<DynamicTest> tests = new ArrayList<>();
        for (Path p : list(root.resolve("nsys"), "*.sqlite")) {
            tests.add(DynamicTest.dynamicTest(p.getFileName().toString(), () -> nsysOne(p)));
        }
        Assumptions.assumeFalse(tests.isEmpty(), "no shared Nsight exports");
        return tests.stream();
    }

    // ------------------------------------------------------------------ Kineto

    private void kinetoOne(Path original) throws IOException {
        byte[] before = Files.readAllBytes(original);
        JsonNode full = analyse(original);
        byte[] json;
        try (InputStream in = InputStreams.open(original)) {
            json = in.readAllBytes();
        }
        Events ev = Events.scan(json, true);
        long cut = cutTime(full);
        Path copy = tmp.resolve("cut-" + original.getFileName().toString().replace(".gz", ""));
        Files.write(copy, ev.cutBefore(cut == Long.MIN_VALUE ? Long.MIN_VALUE : cut - ev.baseNs));
        checkCut(full, copy, cut, true);
        assertTrue(Arrays.equals(before, Files.readAllBytes(original)), "the original is untouched");
    }

    // ------------------------------------------------------------------ Ascend

    private void ascendOne(Path rankDir) throws IOException {
        Path copyDir = tmp.resolve(rankDir.getParent().getFileName() + "-" + rankDir.getFileName());
        copyTree(rankDir, copyDir);
        Path tv = copyDir.resolve("ASCEND_PROFILER_OUTPUT").resolve("trace_view.json");
        JsonNode full = analyse(copyDir);
        Events ev = Events.scan(Files.readAllBytes(tv), false);
        long cut = cutTime(full);
        Files.write(tv, ev.cutBefore(cut));
        checkCut(full, copyDir, cut, true);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                    t.toFile().setWritable(true);
                }
            }
        }
    }

    // ------------------------------------------------------------------ Nsight

    private void nsysOne(Path original) throws IOException, SQLException {
        byte[] before = Files.readAllBytes(original);
        JsonNode full = analyse(original);
        long cut = cutTime(full);
        Path copy = tmp.resolve("cut-" + original.getFileName());
        Files.copy(original, copy);
        copy.toFile().setWritable(true);
        int deleted;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy.toAbsolutePath());
             Statement st = c.createStatement()) {
            long epoch = 0;
            try (ResultSet rs = st.executeQuery("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")) {
                if (rs.next()) {
                    epoch = rs.getLong(1);
                }
            } catch (SQLException e) {
                // no session start: capture times are the report's times
            }
            boolean kernels;
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'")) {
                kernels = rs.next();
            }
            if (kernels) {
                String where;
                if (cut != Long.MIN_VALUE) {
                    where = "start >= " + (cut - epoch);
                } else { // the later half of the kernels, by start
                    where = "start >= (SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start LIMIT 1 OFFSET "
                            + "(SELECT COUNT(*) / 2 FROM CUPTI_ACTIVITY_KIND_KERNEL))";
                }
                deleted = st.executeUpdate("DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE " + where);
            } else {
                deleted = 0;
            }
        }
        Cli run = Cli.run("-f", "json", copy.toString()).assertAnalysed("kernels deleted after the cut");
        JsonNode cutReport = JSON.readTree(run.out());
        if (cut != Long.MIN_VALUE) {
            assertTrue(deleted > 0, "the cut deleted kernels");
            compareCompleteSteps(full, cutReport, cut);
            for (JsonNode rank : cutReport.get("ranks")) {
                JsonNode steps = rank.get("steps");
                if (steps.size() > 0 && hasWorkAfter(full, rank, cut)) {
                    assertTrue(steps.get(steps.size() - 1).get("partial").asBoolean(),
                            "the last step is partial: " + steps.get(steps.size() - 1).get("name"));
                }
            }
        }
        // A file cut at a page boundary in its middle: whatever SQLite can read, or one clear line.
        int page = ((before[16] & 0xff) << 8) | (before[17] & 0xff);
        page = page == 1 ? 65_536 : page;
        Path pages = tmp.resolve("pages-" + original.getFileName());
        Files.write(pages, Arrays.copyOf(before, before.length / page / 2 * page));
        Cli cutFile = Cli.run(pages.toString()).assertNoCrash("cut at a page boundary");
        if (cutFile.exitCode() == ExitCodes.BAD_INPUT) {
            cutFile.assertOneLineError(pages, "cut at a page boundary");
        }
        assertTrue(Arrays.equals(before, Files.readAllBytes(original)), "the original is untouched");
    }

    /** Whether the full analysis of this rank has device work at or after the cut. */
    private static boolean hasWorkAfter(JsonNode full, JsonNode rank, long cut) {
        for (JsonNode r : full.get("ranks")) {
            if (r.get("rank").asInt() == rank.get("rank").asInt()) {
                for (JsonNode s : r.get("steps")) {
                    if (s.hasNonNull("deviceEndNs") && s.get("deviceEndNs").asLong() >= cut) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ common

    private static JsonNode analyse(Path input) throws IOException {
        Cli run = Cli.run("-f", "json", input.toString()).assertAnalysed("the full trace " + input.getFileName());
        return JSON.readTree(run.out());
    }

    /**
     * One past the device end of the second-to-last complete step with device work, over all ranks
     * (the smallest such end), or {@link Long#MIN_VALUE} when no rank has two such steps.
     */
    private static long cutTime(JsonNode report) {
        long cut = Long.MAX_VALUE;
        for (JsonNode rank : report.get("ranks")) {
            List<Long> ends = new ArrayList<>();
            for (JsonNode s : rank.get("steps")) {
                if (!s.get("partial").asBoolean() && s.hasNonNull("deviceEndNs") && s.get("deviceIntervals").asInt() > 0) {
                    ends.add(s.get("deviceEndNs").asLong());
                }
            }
            if (ends.size() >= 2) {
                ends.sort(null);
                cut = Math.min(cut, ends.get(ends.size() - 2) + 1);
            }
        }
        return cut == Long.MAX_VALUE ? Long.MIN_VALUE : cut;
    }

    private static void checkCut(JsonNode full, Path cutInput, long cut, boolean expectWarning) throws IOException {
        Cli run = Cli.run("-f", "json", cutInput.toString()).assertAnalysed("the truncated copy");
        JsonNode report = JSON.readTree(run.out());
        boolean warned = false;
        for (JsonNode rank : report.get("ranks")) {
            for (JsonNode w : rank.get("warnings")) {
                if (w.asText().contains("truncated") && w.asText().matches(".*(character|byte) \\d+.*")) {
                    warned = true;
                }
            }
            JsonNode steps = rank.get("steps");
            if (steps.size() > 0) {
                assertTrue(steps.get(steps.size() - 1).get("partial").asBoolean(),
                        "the last step is partial: " + steps.get(steps.size() - 1).get("name"));
            }
        }
        assertTrue(!expectWarning || warned, "a warning says where the file stopped: " + report.findValues("warnings"));
        if (cut != Long.MIN_VALUE) {
            compareCompleteSteps(full, report, cut);
        }
    }

    /** Every step complete in the full analysis and ending before the cut is identical in the cut one. */
    private static void compareCompleteSteps(JsonNode full, JsonNode cut, long cutNs) {
        int compared = 0;
        int index = 0;
        for (JsonNode fr : full.get("ranks")) {
            // Same file, same ranks, same order (the source path differs: the copy lives elsewhere).
            JsonNode cr = cut.get("ranks").size() > index ? cut.get("ranks").get(index) : null;
            index++;
            for (JsonNode fs : fr.get("steps")) {
                if (fs.get("partial").asBoolean() || !fs.hasNonNull("deviceEndNs") || fs.get("deviceEndNs").asLong() >= cutNs) {
                    continue;
                }
                assertTrue(cr != null, "rank " + fr.get("rank") + " is still there after the cut");
                JsonNode cs = null;
                for (JsonNode s : cr.get("steps")) {
                    if (s.get("name").equals(fs.get("name"))) {
                        cs = s;
                    }
                }
                assertTrue(cs != null, "step " + fs.get("name") + " is still there after the cut");
                // Kineto writes baseTimeNanoseconds after the events: a cut loses it, the reader warns
                // "no time base" and times stay relative. Absolute times then differ by exactly the base,
                // durations and everything else not at all.
                boolean noBase = cr.get("warnings").toString().contains("no time base");
                long shift = noBase ? fs.get("deviceStartNs").asLong() - cs.get("deviceStartNs").asLong() : 0;
                // A step's period runs to the next step's first device start (metrics.md §2), and its
                // idle is measured inside it, and so is where the period went (§11): when the cut may
                // hide that start, only those differ.
                long periodEnd = fs.get("deviceStartNs").asLong() + fs.get("stepPeriodNs").asLong();
                JsonNode expected = fs;
                if (periodEnd >= cutNs) {
                    ObjectNode f = fs.deepCopy();
                    ObjectNode c = cs.deepCopy();
                    for (String field : List.of("stepPeriodNs", "windowOverlapNs", "idleNs", "breakdown", "idle")) {
                        f.remove(field);
                        c.remove(field);
                    }
                    expected = f;
                    cs = c;
                }
                assertSameStep(expected, cs, shift, "step " + fs.get("name") + " of rank " + fr.get("rank"));
                compared++;
            }
        }
        assertTrue(compared > 0, "at least one complete step compared");
    }

    /** Equal JSON, except that integers may differ by exactly {@code shift} (absolute times). */
    private static void assertSameStep(JsonNode full, JsonNode cut, long shift, String where) {
        if (full.isIntegralNumber() && cut.isIntegralNumber()) {
            long d = full.asLong() - cut.asLong();
            assertTrue(d == 0 || d == shift, where + ": " + full + " in the full trace, " + cut + " in the cut one");
            return;
        }
        if (full.isContainerNode()) {
            assertEquals(full.size(), cut.size(), where + ": size of " + full);
            if (full.isArray()) {
                for (int i = 0; i < full.size(); i++) {
                    assertSameStep(full.get(i), cut.get(i), shift, where + "[" + i + "]");
                }
            } else {
                full.fieldNames().forEachRemaining(f -> assertSameStep(full.get(f), cut.get(f) == null
                        ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : cut.get(f), shift, where + "." + f));
            }
            return;
        }
        assertEquals(full, cut, where);
    }

    /** The events of a Kineto object or a bare Ascend array: byte ranges and times (ns, the file's frame). */
    private record Events(byte[] json, long[] start, long[] end, long[] tsNs, int n, long baseNs) {
        static Events scan(byte[] json, boolean kineto) throws IOException {
            long[] start = new long[1024];
            long[] end = new long[1024];
            long[] ts = new long[1024];
            int n = 0;
            long base = 0;
            try (JsonParser p = new JsonFactory().createParser(json)) {
                p.nextToken();
                if (kineto) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String key = p.currentName();
                        JsonToken v = p.nextToken();
                        if (key.equals("baseTimeNanoseconds") && v.isNumeric()) {
                            base = p.getLongValue();
                        } else if (key.equals("traceEvents") && v == JsonToken.START_ARRAY) {
                            break;
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                for (JsonToken t = p.nextToken(); t == JsonToken.START_OBJECT; t = p.nextToken()) {
                    if (n == start.length) {
                        start = Arrays.copyOf(start, n * 2);
                        end = Arrays.copyOf(end, n * 2);
                        ts = Arrays.copyOf(ts, n * 2);
                    }
                    start[n] = p.currentTokenLocation().getByteOffset();
                    JsonNode e = JSON.readTree(p);
                    end[n] = p.currentLocation().getByteOffset();
                    JsonNode t0 = e.get("ts");
                    String ph = e.path("ph").asText();
                    // Metadata and instants carry the capture's start time, and Kineto writes them (and
                    // the "PyTorch Profiler" span) after all other events: they do not place the cut.
                    boolean timed = !ph.equals("M") && !ph.equals("i") && !ph.equals("I")
                            && !e.path("name").asText().startsWith("PyTorch Profiler");
                    ts[n] = !timed || t0 == null || !(t0.isNumber() || t0.isTextual()) ? Long.MIN_VALUE
                            : micros(t0.asText());
                    n++;
                }
                if (kineto && base == 0) { // the header may follow the events
                    for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                        if (t == JsonToken.FIELD_NAME && p.currentName().equals("baseTimeNanoseconds")
                                && p.nextToken().isNumeric()) {
                            base = p.getLongValue();
                        }
                    }
                }
            }
            return new Events(json, start, end, ts, n, base);
        }

        private static long micros(String text) {
            try {
                return new BigDecimal(text).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
            } catch (NumberFormatException | ArithmeticException e) {
                return Long.MIN_VALUE;
            }
        }

        /**
         * The JSON cut in the middle of the event after the last one (in file order) with
         * {@code ts < cutNs}; with no cut time, in the middle of the middle event.
         */
        byte[] cutBefore(long cutNs) {
            int last = -1;
            if (cutNs == Long.MIN_VALUE) {
                last = n / 2 - 1;
            } else {
                for (int i = 0; i < n; i++) {
                    if (tsNs[i] != Long.MIN_VALUE && tsNs[i] < cutNs) {
                        last = i;
                    }
                }
            }
            assertTrue(last >= 0 && last + 1 < n, "the cut falls inside the event array (event " + last + " of " + n + ")");
            int next = last + 1;
            int at = (int) ((start[next] + end[next]) / 2);
            String where = new String(json, (int) start[next], Math.min(60, (int) (end[next] - start[next])),
                    StandardCharsets.UTF_8);
            assertTrue(at > end[last], "cut inside event " + next + ": " + where);
            return Arrays.copyOf(json, at);
        }
    }
}
