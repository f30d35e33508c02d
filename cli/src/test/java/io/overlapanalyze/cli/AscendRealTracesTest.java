package io.overlapanalyze.cli;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.ReadOptions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.CrossCheckStep;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance (Ascend issue, points 2 and 3) on the real torch_npu captures of ../shared/traces/ascend.
 * The expected values are read here, independently of the reader: the Overlap Analysis lane of
 * trace_view.json summed with a JSON tree (every lane event lies in the one step of these files,
 * PROVENANCE.md), step_trace_time.csv, and analysis.db StepTraceTime through plain JDBC.
 */
class AscendRealTracesTest {
    private static final long ONE_US = 1_000;

    private static Path ascend(String sub) {
        Path p = SharedTraces.root().resolve("ascend").resolve(sub);
        Assumptions.assumeTrue(Files.isDirectory(p), "shared Ascend capture " + p + " not found: skipping");
        return p;
    }

    private static StepReport onlyStep(RankReport r) {
        assertEquals(1, r.steps().size(), "one profiled step");
        StepReport s = r.steps().get(0);
        assertEquals("ProfilerStep#50", s.name());
        return s;
    }

    @ParameterizedTest(name = "rank {0}")
    @ValueSource(ints = {0, 1})
    void textExportAgreesWithOverlapLaneAndStepTraceCsv(int rank) throws Exception {
        Path dir = ascend("torch_npu_text_level1/rank" + rank + "_ascend_pt");
        List<RankTrace> traces = TraceFormats.standard().read(dir);
        assertEquals(1, traces.size());
        assertEquals(rank, traces.get(0).rank(), "rank from profiler_info_<rank>.json");
        RankReport report = RankAnalyzer.analyze(traces.get(0), AnalysisOptions.defaults());
        StepReport s = onlyStep(report);

        Map<String, Long> lane = overlapLaneSums(dir.resolve("ASCEND_PROFILER_OUTPUT/trace_view.json"));
        assertWithin(lane.get("Communication"), s.commBusyNs(), "commBusy vs Communication lane");
        assertWithin(lane.get("Communication(Not Overlapped)"), s.exposedCommNs(), "exposedComm vs lane");
        assertWithin(lane.get("Computing"), s.computeBusyNs(), "computeBusy vs Computing lane");

        Map<String, Long> csv = stepTraceCsv(dir.resolve("ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
        assertWithin(csv.get("Communication"), s.commBusyNs(), "commBusy vs step_trace_time.csv");
        assertWithin(csv.get("Communication(Not Overlapped)"), s.exposedCommNs(), "exposedComm vs csv");
        assertWithin(csv.get("Computing"), s.computeBusyNs(), "computeBusy vs csv");

        // The report's own cross-check shows the same lane values and the differences.
        assertEquals(1, report.crossCheck().size());
        CrossCheckStep c = report.crossCheck().get(0);
        assertEquals("ProfilerStep#50", c.step());
        assertEquals(lane.get("Computing"), c.computing().theirsNs());
        assertEquals(lane.get("Communication"), c.communication().theirsNs());
        assertEquals(lane.get("Communication(Not Overlapped)"), c.exposedCommunication().theirsNs());
        assertEquals(lane.get("Free"), c.free().theirsNs());
        assertEquals(s.computeBusyNs() - lane.get("Computing"), c.computing().diffNs());
    }

    @ParameterizedTest(name = "rank {0}")
    @ValueSource(ints = {0, 1})
    void dbExportEqualsAnalysisDbAndLeavesFilesUntouched(int rank) throws Exception {
        Path dir = ascend("torch_npu_db_level1/rank" + rank + "_ascend_pt");
        Path out = dir.resolve("ASCEND_PROFILER_OUTPUT");
        Path db = out.resolve("ascend_pytorch_profiler_" + rank + ".db");
        Path analysis = out.resolve("analysis.db");
        List<String> before = listing(out);
        String dbHash = sha256(db);
        String analysisHash = sha256(analysis);

        List<RankTrace> traces = TraceFormats.standard().read(dir);
        assertEquals(1, traces.size());
        assertEquals(rank, traces.get(0).rank(), "rank from RANK_DEVICE_MAP");
        StepReport s = onlyStep(RankAnalyzer.analyze(traces.get(0), AnalysisOptions.defaults()));

        assertEquals(dbHash, sha256(db), "rank database byte-identical after the run");
        assertEquals(analysisHash, sha256(analysis), "analysis.db byte-identical after the run");
        assertEquals(before, listing(out), "no -wal/-shm/-journal side files created");

        Map<String, Long> ref = analysisDb(analysis);
        assertWithin(ref.get("communication"), s.commBusyNs(), "commBusy vs StepTraceTime");
        assertWithin(ref.get("communication_not_overlapped"), s.exposedCommNs(), "exposedComm vs StepTraceTime");
        assertWithin(ref.get("computing"), s.computeBusyNs(), "computeBusy vs StepTraceTime");
        // PROVENANCE.md: the union rule equals StepTraceTime to the ns on these files.
        assertEquals(ref.get("communication"), s.commBusyNs());
        assertEquals(ref.get("computing"), s.computeBusyNs());
        assertEquals(ref.get("communication_not_overlapped"), s.exposedCommNs());
        assertEquals(dbHash, sha256(db), "still identical after reading the reference ourselves");
        assertEquals(before, listing(out));
    }

    /** Point 3: the two ranks' collectives correspond one to one by (group, sequence, type). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"torch_npu_text_level1", "torch_npu_db_level1"})
    void collectiveSequencesMatchAcrossRanks(String capture) throws Exception {
        Path root = ascend(capture);
        List<RankTrace> ranks = TraceFormats.standard().readAll(List.of(root), ReadOptions.DEFAULT);
        assertEquals(2, ranks.size(), "the directory expands to both rank captures");
        List<List<String>> keys = new ArrayList<>();
        for (RankTrace t : ranks) {
            List<String> k = new ArrayList<>();
            for (Collective c : t.collectives()) {
                assertTrue(c.sequence() >= 0, c.name() + " carries its hcom sequence");
                assertTrue(c.group() != null && c.group().name() != null, c.name() + " carries its group");
                k.add(c.group().name() + "/" + c.sequence() + "/" + c.type());
            }
            keys.add(k);
        }
        assertEquals(List.of("0", "1", "2", "3"),
                ranks.get(0).collectives().stream().map(c -> Long.toString(c.sequence())).toList());
        assertEquals(keys.get(0), keys.get(1), "same (group, seq, type) on both ranks, in the same order");
        assertEquals(keys.get(0).size(), keys.get(0).stream().distinct().count(), "keys are unique per rank");
    }

    @Test
    void bareTraceViewJsonIsRead() throws Exception {
        Path trace = ascend("torch_npu_text_level1/rank1_ascend_pt").resolve("ASCEND_PROFILER_OUTPUT/trace_view.json");
        RankTrace t = TraceFormats.standard().read(trace).get(0);
        assertEquals(1, t.rank(), "rank found in ../profiler_info_1.json");
        assertEquals(4, t.collectives().size());
    }

    private static void assertWithin(long expected, long actual, String what) {
        assertTrue(Math.abs(expected - actual) <= ONE_US,
                what + ": expected " + expected + " ns within 1 µs, got " + actual + " ns");
    }

    /** Sum of each Overlap Analysis thread's event durations, exact decimal µs → ns (half-up). */
    static Map<String, Long> overlapLaneSums(Path traceView) throws IOException {
        JsonNode events = new ObjectMapper().readTree(traceView.toFile());
        String pid = null;
        Map<String, String> threads = new HashMap<>();
        for (JsonNode e : events) {
            if ("M".equals(e.path("ph").asText()) && "process_name".equals(e.path("name").asText())
                    && "Overlap Analysis".equals(e.path("args").path("name").asText())) {
                pid = e.path("pid").asText();
            }
        }
        for (JsonNode e : events) {
            if ("M".equals(e.path("ph").asText()) && "thread_name".equals(e.path("name").asText())
                    && e.path("pid").asText().equals(pid)) {
                threads.put(e.path("tid").asText(), e.path("args").path("name").asText());
            }
        }
        Map<String, BigDecimal> sums = new HashMap<>();
        for (JsonNode e : events) {
            if ("X".equals(e.path("ph").asText()) && e.path("pid").asText().equals(pid)) {
                sums.merge(threads.get(e.path("tid").asText()), new BigDecimal(e.path("dur").asText()), BigDecimal::add);
            }
        }
        Map<String, Long> out = new HashMap<>();
        sums.forEach((k, v) -> out.put(k, v.movePointRight(3).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact()));
        return out;
    }

    /** The one data row of step_trace_time.csv, µs → ns (its values are Python floats). */
    static Map<String, Long> stepTraceCsv(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        String[] head = lines.get(0).split(",");
        String[] row = lines.get(1).split(",");
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < head.length && i < row.length; i++) {
            if (!row[i].isBlank()) {
                out.put(head[i].trim(), new BigDecimal(row[i].trim()).movePointRight(3)
                        .setScale(0, java.math.RoundingMode.HALF_UP).longValueExact());
            }
        }
        return out;
    }

    static Map<String, Long> analysisDb(Path analysis) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (ReadOnlySqlite db = ReadOnlySqlite.open(analysis);
             Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT computing, communication, communication_not_overlapped, free "
                     + "FROM StepTraceTime WHERE step = '50'")) {
            assertTrue(rs.next(), "StepTraceTime has step 50");
            for (String col : List.of("computing", "communication", "communication_not_overlapped", "free")) {
                out.put(col, new BigDecimal(rs.getString(col)).movePointRight(3).longValueExact());
            }
        }
        return out;
    }

    static String sha256(Path f) throws IOException, NoSuchAlgorithmException {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(f)) {
            md.update(in.readAllBytes());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
