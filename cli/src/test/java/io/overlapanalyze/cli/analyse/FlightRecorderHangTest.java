package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 31 acceptance: the two real Flight Recorder runs of ../shared/traces/flight-recorder, whose
 * {@code reference_analysis.txt} (the table NVIDIA's analyser is tested against) names, per process
 * group, the ranks missing from it; and a hostile pickle, refused in one line.
 */
class FlightRecorderHangTest {
    private static final String[] RUNS = {"gpu_error_2nd", "lock_gil_1st"};

    @Test
    void missingRanksPerGroupEqualTheReferenceTables() throws IOException {
        for (String run : RUNS) {
            Path dir = run(run);
            Map<String, TreeSet<Integer>> expected = reference(dir.resolve("reference_analysis.txt"));
            assertFalse(expected.isEmpty(), run + ": the reference table names no group");
            CliRun json = CliRun.of("--format", "json", dir.toString());
            assertEquals(0, json.exitCode(), run + ": " + json.err());
            JsonNode hang = JsonRenderer.mapper().readTree(json.out()).get("hang");
            assertNotNull(hang, run + ": the report has no hang section");
            for (Map.Entry<String, TreeSet<Integer>> e : expected.entrySet()) {
                TreeSet<Integer> missing = null;
                for (JsonNode d : hang.get("divergences")) {
                    if (d.get("group").asText().equals(e.getKey()) && !d.get("p2p").asBoolean()) {
                        missing = new TreeSet<>();
                        for (JsonNode r : d.get("missing")) {
                            missing.add(r.asInt());
                        }
                    }
                }
                assertEquals(e.getValue(), missing, run + ": group " + e.getKey());
            }
            // The injection log's ranks: each is missing in every divergent group it belongs to.
            for (int rank : faultRanks(dir.resolve("fault_injection.log"))) {
                JsonNode found = null;
                for (JsonNode r : hang.get("ranks")) {
                    if (r.get("rank").asInt() == rank) {
                        found = r;
                    }
                }
                assertNotNull(found, run + ": fault rank " + rank + " is not named");
                assertEquals("MISSING_EVERYWHERE", found.get("verdict").asText(), run + ": rank " + rank);
            }
            CliRun markdown = CliRun.of("--format", "markdown", dir.toString());
            assertEquals(0, markdown.exitCode(), run + ": " + markdown.err());
            assertTrue(markdown.out().contains("## Hang (Flight Recorder)\n\n**hang: group 72 EXPERT\\_MODEL\\_PARALLEL\\_GROUP "
                    + "nccl:all\\_to\\_all #"), run + ": " + markdown.out());
            CliRun text = CliRun.of(dir.toString());
            assertEquals(0, text.exitCode(), run + ": " + text.err());
            assertTrue(text.out().contains("\nhang: group "), run + ": " + text.out());
            // No step on any rank: one line instead of a table of dashes, naming the ranks the errors name.
            assertTrue(text.out().contains("\nranks: no rank has a complete step with device work, so there is no per-rank "
                    + "timing to rank them by; ranks "), run + ": " + text.out());
            assertTrue(text.out().contains("overlap metrics: not available (Flight Recorder dump: no device timeline)"),
                    run + ": " + text.out());
            assertFalse(text.out().contains("TYPE mismatch"), run + ": send and recv of one pair are no type mismatch");
        }
    }

    /**
     * PyTorch's JSON variant of the same dumps gives the same hang section: each real pickle is turned
     * into JSON here (Pyrolite's own unpickler, on files this test trusts) and both sets are analysed.
     */
    @Test
    void theJsonVariantOfTheSameDumpsGivesTheSameHangSection(@TempDir Path tmp) throws Exception {
        Path dir = run("lock_gil_1st");
        Path json = Files.createDirectories(tmp.resolve("json"));
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        int converted = 0;
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("_dump_")).toList()) {
                Object tree = new net.razorvine.pickle.Unpickler().loads(Files.readAllBytes(f));
                Files.write(json.resolve(f.getFileName().toString()), mapper.writeValueAsBytes(tree));
                converted++;
            }
        }
        assertEquals(16, converted);
        JsonNode fromPickles = hang(dir);
        JsonNode fromJson = hang(json);
        assertEquals(fromPickles, fromJson);
    }

    private static JsonNode hang(Path dir) throws IOException {
        CliRun run = CliRun.of("--format", "json", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        return JsonRenderer.mapper().readTree(run.out()).get("hang");
    }

    /**
     * What the fault ranks' own dumps show, as read from the dumps (Python's pickle, by hand): in the
     * GPU_ERROR run rank 9 still buffers operations, the newest (record 192093) an all_gather of group 37
     * at #87760, and its group 72 stopped at #44790; in the LOCK_GIL run ranks 9 and 14 buffer nothing,
     * and their pg_status puts them at #45264 in group 72, one short of the others' first pending #45265.
     */
    @Test
    void theReportSaysWhatTheFaultRanksDumpsShow() throws IOException {
        JsonNode gpu = hang(run("gpu_error_2nd"));
        assertEquals("group 37 nccl:_all_gather_base #87760 scheduled", rank(gpu, 9).get("lastOperation").asText());
        assertEquals(44790, progress(gpu, "72", 9).get("lastEnqueued").asLong());
        JsonNode gil = hang(run("lock_gil_1st"));
        for (int r : new int[] {9, 14}) {
            assertTrue(rank(gil, r).get("lastOperation").isNull(), "rank " + r + " buffers nothing");
            assertEquals(45264, progress(gil, "72", r).get("lastEnqueued").asLong());
        }
        assertEquals(45265, divergence(gil, "72").get("sequence").asLong());
    }

    private static JsonNode rank(JsonNode hang, int rank) {
        for (JsonNode r : hang.get("ranks")) {
            if (r.get("rank").asInt() == rank) {
                return r;
            }
        }
        throw new AssertionError("rank " + rank + " not in " + hang.get("ranks"));
    }

    private static JsonNode divergence(JsonNode hang, String group) {
        for (JsonNode d : hang.get("divergences")) {
            if (d.get("group").asText().equals(group) && !d.get("p2p").asBoolean()) {
                return d;
            }
        }
        throw new AssertionError("group " + group + " not in the divergences");
    }

    private static JsonNode progress(JsonNode hang, String group, int rank) {
        for (JsonNode p : divergence(hang, group).get("progress")) {
            if (p.get("rank").asInt() == rank) {
                return p;
            }
        }
        throw new AssertionError("rank " + rank + " not in group " + group);
    }

    /**
     * "When the job hangs" (docs/hangs.md, linked from the README) shows the first lines of the hang
     * section on a shared run (marked not-output: ReadmeExamplesTest cannot reach ../shared/traces);
     * they are what the tool prints.
     */
    @Test
    void theHangsPageShowsTheFirstLinesOfTheRealHangSection() throws IOException {
        Path dir = run("gpu_error_2nd");
        String page = Files.readString(Path.of(System.getProperty("overlap.projectRoot", "..")).resolve("docs/hangs.md"));
        int section = page.indexOf("# When the job hangs");
        assertTrue(section >= 0, "docs/hangs.md has no 'When the job hangs'");
        int start = page.indexOf("```text\n", section) + "```text\n".length();
        String shown = page.substring(start, page.indexOf("```", start));
        String out = CliRun.of(dir.toString()).out();
        // The verdict opens the report; the section with the detail the page shows ends it.
        assertTrue(out.lines().skip(2).findFirst().orElse("").startsWith("hang: group 72 "), out);
        int hang = out.lastIndexOf("\nhang: ") + 1;
        assertTrue(hang > 0, out);
        assertEquals(shown, out.substring(hang, hang + shown.length()));
    }

    @Test
    void aPickleThatAsksForAGlobalIsRefusedInOneLine(@TempDir Path tmp) throws IOException {
        Path dump = tmp.resolve("nccl_trace_rank_0");
        Files.write(dump, hostilePickle());
        CliRun run = CliRun.of(dump.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(1, run.errLines().size(), run.err());
        String line = run.errLines().get(0);
        assertTrue(line.contains(dump.toString()) && line.contains("GLOBAL"), line);
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertEquals("", run.out());
    }

    /**
     * A protocol-2 pickle of a dict with a dump's keys whose {@code entries} value is
     * {@code os.system("echo pwned")}: GLOBAL 'os system', a tuple, REDUCE.
     */
    static byte[] hostilePickle() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x80);
        b.write(2);
        b.write('}'); // EMPTY_DICT
        b.write('('); // MARK
        shortUnicode(b, "version");
        shortUnicode(b, "2.9");
        shortUnicode(b, "pg_config");
        b.write('}');
        shortUnicode(b, "entries");
        b.writeBytes("cos\nsystem\n".getBytes(StandardCharsets.US_ASCII)); // GLOBAL os.system
        shortUnicode(b, "echo pwned");
        b.write(0x85); // TUPLE1
        b.write('R'); // REDUCE
        b.write('u'); // SETITEMS
        b.write('.'); // STOP
        return b.toByteArray();
    }

    private static void shortUnicode(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.write('X'); // BINUNICODE, 4-byte little-endian length
        b.write(bytes.length);
        b.write(0);
        b.write(0);
        b.write(0);
        b.writeBytes(bytes);
    }

    /** The page opens with the hang too: its verdict before the findings, the groups' divergences below it. */
    @Test
    void theHtmlPageOpensWithTheHang(@TempDir Path tmp) throws IOException {
        Path dir = run(RUNS[0]);
        Path page = tmp.resolve("hang.html");
        CliRun run = CliRun.of("--html", page.toString(), "-o", tmp.resolve("report.txt").toString(), dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        String html = Files.readString(page, StandardCharsets.UTF_8);
        int hang = html.indexOf("<section id=\"hang\">");
        assertTrue(hang > 0, "no hang section");
        assertTrue(hang < html.indexOf("id=\"findings\""), "the hang comes before the findings");
        assertTrue(html.indexOf("<b>hang: group 72 EXPERT_MODEL_PARALLEL_GROUP nccl:all_to_all #", hang) > 0,
                html.substring(hang, Math.min(html.length(), hang + 600)));
        assertTrue(html.indexOf("never enqueued by", hang) > 0);
    }

    /**
     * A gate over the dumps of a hung job fails (exit 1) on the cross-rank check, where it used to be
     * refused as "no complete step" (exit 2, read as bad usage): a job that hangs is the failure a gate
     * exists to catch, whatever baseline it is given.
     */
    @Test
    void aGateOverAHungJobsDumpsFails() throws IOException {
        Path dir = run(RUNS[0]);
        Path baseline = SamplesTest.samples().resolve("job-healthy-4rank");
        CliRun gate = CliRun.of("gate", "--baseline", baseline.toString(), "--format", "json", dir.toString());
        assertEquals(1, gate.exitCode(), gate.err() + gate.out());
        JsonNode report = JsonRenderer.mapper().readTree(gate.out());
        assertEquals("REGRESSION", report.get("result").asText());
        JsonNode check = report.get("checks").get(0);
        assertEquals("crossRankErrors", check.get("metric").asText());
        assertEquals("REGRESSION", check.get("status").asText());
        assertTrue(check.get("current").asLong() > 0, check.toString());
        // Every step-level check has nothing to compare on a dump set and says so; none passes silently.
        for (JsonNode c : report.get("checks")) {
            if (!"crossRankErrors".equals(c.get("metric").asText())) {
                assertEquals("SKIPPED", c.get("status").asText(), c.toString());
            }
        }
    }

    private static Path run(String name) {
        Path dir = SharedTraces.root().resolve("flight-recorder").resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(dir), "shared Flight Recorder run " + dir + " not found: skipping");
        return dir;
    }

    /** The reference table: {@code PGID | desc | op | size | dtype | missing ranks}, one row per group. */
    static Map<String, TreeSet<Integer>> reference(Path file) throws IOException {
        Map<String, TreeSet<Integer>> out = new TreeMap<>();
        List<String> lines = Files.readAllLines(file);
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split("\\|");
            if (cells.length < 6) {
                continue;
            }
            TreeSet<Integer> ranks = new TreeSet<>();
            for (String r : cells[5].trim().split(",")) {
                ranks.add(Integer.parseInt(r.trim()));
            }
            out.put(cells[0].trim(), ranks);
        }
        return out;
    }

    /** The injection log's {@code Rank <n>, fault_type: ...} lines. */
    static List<Integer> faultRanks(Path log) throws IOException {
        List<Integer> out = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^Rank (\\d+),").matcher(line);
            if (m.find()) {
                out.add(Integer.parseInt(m.group(1)));
            }
        }
        return out;
    }
}
