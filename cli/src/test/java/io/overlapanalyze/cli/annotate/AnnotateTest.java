package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;
import io.overlapanalyze.cli.analyse.TimelineTest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.cli.annotate.TrackPacker;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code annotate}: valid Chrome-trace JSON, no crossing slices on any track, markers at the exact
 * metric times (read back as decimal text, never through double), and the tail, exposed
 * intervals and chain of the seed's worked examples (metrics.md §7).
 */
class AnnotateTest {
    private static final long MS = 1_000_000L;
    /** Reads ts/dur as BigDecimal: a double cannot hold epoch microseconds to the nanosecond. */
    static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @TempDir
    Path tmp;

    private JsonNode annotate(Path trace) throws IOException {
        Path out = tmp.resolve(trace.getFileName() + ".annotated.json");
        CliRun run = CliRun.of("annotate", trace.toString(), "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        return JSON.readTree(out.toFile());
    }

    static long ns(JsonNode time) {
        BigDecimal us = time.decimalValue();
        return us.movePointRight(3).longValueExact();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"seed-1ms", "seed-4ms", "seed-1ms-optimizer", "seed-4ms-optimizer", "late-last-bucket",
            "training-jitter"})
    void everySeedScenarioGivesValidChromeTraceWithoutCrossingSlices(String scenario) throws IOException {
        Path trace = tmp.resolve(scenario + ".pt.trace.json");
        try (OutputStream out = Files.newOutputStream(trace)) {
            KinetoScenarioWriter.write(BuiltinScenarios.get(scenario), out);
        }
        JsonNode root = annotate(trace);
        checkValidChromeTrace(root);
        checkNesting(root);
        // The markers are exactly the report's (JSON output of the same analysis).
        CliRun json = CliRun.of("-f", "json", trace.toString());
        JsonNode steps = io.overlapanalyze.render.JsonRenderer.mapper().readTree(json.out())
                .get("ranks").get(0).get("steps");
        Map<String, Long> expected = new HashMap<>();
        for (JsonNode s : steps) {
            s.get("markers").fields().forEachRemaining(f -> {
                if (!f.getValue().isNull() && !f.getKey().equals("lastBucketReadyNs")) {
                    expected.put(s.get("name").asText() + "/" + f.getKey().replace("Ns", ""), f.getValue().asLong());
                }
            });
        }
        Map<String, Long> instants = new HashMap<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (e.get("ph").asText().equals("i") && e.get("cat").asText().equals("marker")) {
                long at = ns(e.get("ts"));
                assertEquals(e.get("args").get("ns").asLong(), at, "ts is the exact ns in µs: " + e);
                instants.put(e.get("args").get("step").asText() + "/" + e.get("args").get("marker").asText(), at);
            }
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, instants);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 7", "seed-4ms, 14"})
    void seedSamplesCarryTheWorkedExampleExactly(String sample, long lastReduceEndMs) throws IOException {
        JsonNode root = annotate(TimelineTest.sample(sample));
        StepReport step = TimelineTest.analyse(sample).report().ranks().get(0).steps().get(0);
        long t0 = step.deviceStartNs();
        Map<String, Integer> tracks = trackIds(root, pidNamed(root, "overlap-analyze"));

        Map<String, Long> markers = new HashMap<>();
        for (JsonNode e : markers(root)) {
            assertEquals((int) tracks.get("markers"), e.get("tid").asInt());
            markers.put(e.get("args").get("marker").asText(), ns(e.get("ts")) - t0);
        }
        assertEquals(Map.of("firstBucketReady", 2 * MS, "reduceStart", 2 * MS, "lastComputeEnd", 6 * MS,
                "lastReduceEnd", lastReduceEndMs * MS), markers);

        assertEquals(List.of(List.of(6 * MS, lastReduceEndMs * MS)), slicesOn(root, tracks.get("tail"), t0), "tail");
        assertEquals(List.of(List.of(6 * MS, lastReduceEndMs * MS)), slicesOn(root, tracks.get("exposed comm"), t0),
                "exposed comm = C − K");
        List<List<Long>> chain = slicesOn(root, tracks.get("attribution chain"), t0);
        List<List<Long>> expectedChain = new ArrayList<>();
        for (ChainLink l : step.attribution().chain()) {
            expectedChain.add(List.of(l.startNs() - t0, l.endNs() - t0));
        }
        expectedChain.sort(Comparator.comparing(l -> l.get(0)));
        if (lastReduceEndMs == 14) {
            assertEquals(List.of(List.of(2 * MS, 6 * MS), List.of(6 * MS, 10 * MS), List.of(10 * MS, 14 * MS)), chain,
                    "COMM_BOUND: g3 QUEUE -> g2 QUEUE -> g1 DATA");
        } else {
            assertEquals(List.of(List.of(6 * MS, 7 * MS)), chain, "LAST_BUCKET: g3 bound by DATA");
        }
        assertEquals(expectedChain, chain);

        // Device lanes: the rank's kernels, from the model (3 compute + 3 all-reduce).
        int device = pidNamed(root, "rank 0 device");
        long kernels = events(root, "X").stream().filter(e -> e.get("pid").asInt() == device).count();
        assertEquals(6, kernels);
    }

    /** Real: the 15 {@code gpu_user_annotation} ranges PROVENANCE.md counts sit beside their stream. */
    @Test
    void gpuAnnotationsOfARealTraceSitBesideTheirLane() throws IOException {
        JsonNode root = annotate(SharedTraces.kineto("hta_ns_resolution_world1_v100_no_nccl.json.gz"));
        checkValidChromeTrace(root);
        checkNesting(root);
        int device = pidNamed(root, "rank 0 device");
        Map<String, Integer> threads = new HashMap<>();
        for (JsonNode e : events(root, "M")) {
            if (e.get("name").asText().equals("thread_name") && e.get("pid").asInt() == device) {
                threads.put(e.get("args").get("name").asText(), e.get("tid").asInt());
            }
        }
        long annotations = events(root, "X").stream().filter(e -> e.get("cat").asText().equals("annotation")
                && e.get("pid").asInt() == device).count();
        assertEquals(15, annotations, threads.toString());
        assertTrue(threads.keySet().stream().anyMatch(n -> n.matches("device \\d+ .* annotations")), threads.toString());
    }

    @Test
    void overlappingSlicesGoToSeparateTracks() {
        long[] s = {0, 5, 10, 12, 20, 20};
        long[] e = {10, 15, 20, 13, 30, 25};
        int[] track = TrackPacker.pack(s, e);
        for (int i = 0; i < s.length; i++) {
            for (int j = i + 1; j < s.length; j++) {
                if (track[i] == track[j]) {
                    assertTrue(e[i] <= s[j] || e[j] <= s[i], "slices " + i + " and " + j + " share a track and overlap");
                }
            }
        }
        assertEquals(0, track[0]);
        assertEquals(1, track[1], "[5,15) overlaps [0,10)");
        assertEquals(0, track[2], "[10,20) touches [0,10): same track");
    }

    @Test
    void nestingSlicesShareATrackAndCrossingOnesMove() {
        // A step [0,100) holding ops [0,40), [10,20) (inside the first), [40,100); [90,120) crosses
        // the step and must move; [100,110) starts as the step ends and stays.
        long[] s = {0, 0, 10, 40, 90, 100, 95};
        long[] e = {100, 40, 20, 100, 120, 110, 95};
        int[] track = TrackPacker.nest(s, e);
        assertEquals(0, track[0]);
        assertEquals(0, track[1], "inside the step");
        assertEquals(0, track[2], "inside [0,40)");
        assertEquals(0, track[3], "inside the step, after [0,40)");
        assertEquals(1, track[4], "[90,120) crosses the step");
        assertEquals(0, track[5], "[100,110) after the step");
        assertEquals(0, track[6], "an empty slice inside [40,100)");
    }

    @Test
    void severalRanksGetOneGroupEach(@TempDir Path dir) throws IOException {
        for (int r = 0; r < 3; r++) {
            try (OutputStream out = Files.newOutputStream(dir.resolve("rank" + r + ".pt.trace.json"))) {
                KinetoScenarioWriter.write(BuiltinScenarios.get("seed-4ms").withRank(r, 3).withSteps(2), out);
            }
        }
        JsonNode root = annotate(dir);
        checkValidChromeTrace(root);
        checkNesting(root);
        for (int r = 0; r < 3; r++) {
            pidNamed(root, "overlap-analyze rank " + r);
            pidNamed(root, "rank " + r + " device");
        }
        assertEquals(3 * 2 * 4, markers(root).size(), "four markers per rank and step");
    }

    // --- helpers -------------------------------------------------------------------------------

    static void checkValidChromeTrace(JsonNode root) {
        assertTrue(root.isObject() && root.get("traceEvents").isArray(), "object with a traceEvents array");
        for (JsonNode e : root.get("traceEvents")) {
            String ph = e.get("ph").asText();
            assertTrue(List.of("X", "i", "M").contains(ph), "known phase: " + e);
            assertTrue(e.get("pid").isInt(), "integer pid: " + e);
            assertNotNull(e.get("name"), "named: " + e);
            if (!ph.equals("M")) {
                assertTrue(e.get("tid").isInt(), "integer tid: " + e);
                assertTrue(e.get("ts").isNumber(), "numeric ts: " + e);
                assertTrue(e.get("ts").decimalValue().scale() <= 3, "ts at ns resolution: " + e);
            }
            if (ph.equals("X")) {
                assertTrue(e.get("dur").isNumber() && e.get("dur").decimalValue().signum() >= 0, "dur >= 0: " + e);
            }
            if (ph.equals("M")) {
                assertTrue(e.get("args").has("name") || e.get("args").has("sort_index") || e.get("args").has("labels"),
                        e.toString());
            }
        }
    }

    /**
     * Perfetto's rule on every track (pid, tid): sorted by start (longest first), each slice lies inside
     * the innermost slice still open or after it; on the analysis and device processes, whose slices
     * are peers, no two may overlap at all (touching is fine). Only host lanes and annotations nest.
     */
    static void checkNesting(JsonNode root) {
        Map<Integer, String> processes = processNames(root);
        Map<String, String> threads = new HashMap<>();
        for (JsonNode e : events(root, "M")) {
            if (e.get("name").asText().equals("thread_name")) {
                threads.put(e.get("pid").asInt() + "/" + e.get("tid").asInt(), e.get("args").get("name").asText());
            }
        }
        Map<String, List<long[]>> byTrack = new HashMap<>();
        for (JsonNode e : events(root, "X")) {
            long start = ns(e.get("ts"));
            byTrack.computeIfAbsent(e.get("pid").asInt() + "/" + e.get("tid").asInt(), k -> new ArrayList<>())
                    .add(new long[] {start, start + ns(e.get("dur"))});
        }
        assertFalse(byTrack.isEmpty());
        byTrack.forEach((track, slices) -> {
            boolean host = processes.get(Integer.parseInt(track.substring(0, track.indexOf('/')))).endsWith(" host")
                    || threads.get(track).matches(".* annotations( \\(\\d+\\))?");
            slices.sort(Comparator.comparingLong((long[] a) -> a[0]).thenComparingLong(a -> -a[1]));
            List<long[]> open = new ArrayList<>();
            for (long[] s : slices) {
                while (!open.isEmpty() && open.get(open.size() - 1)[1] <= s[0]) {
                    open.remove(open.size() - 1);
                }
                if (!open.isEmpty()) {
                    long[] parent = open.get(open.size() - 1);
                    assertTrue(host || s[1] == s[0], "overlapping peers on track " + track + ": [" + parent[0] + "," + parent[1]
                            + ") and [" + s[0] + "," + s[1] + ")");
                    assertTrue(s[1] <= parent[1], "crossing slices on track " + track + ": [" + parent[0] + ","
                            + parent[1] + ") and [" + s[0] + "," + s[1] + ")");
                }
                open.add(s);
            }
        });
    }

    /** The marker instants (the host lanes' launches and enqueues are instants too). */
    static List<JsonNode> markers(JsonNode root) {
        return events(root, "i").stream().filter(e -> e.get("cat").asText().equals("marker")).toList();
    }

    /** Process names by pid. */
    static Map<Integer, String> processNames(JsonNode root) {
        Map<Integer, String> names = new HashMap<>();
        for (JsonNode e : events(root, "M")) {
            if (e.get("name").asText().equals("process_name")) {
                names.put(e.get("pid").asInt(), e.get("args").get("name").asText());
            }
        }
        return names;
    }

    static List<JsonNode> events(JsonNode root, String ph) {
        List<JsonNode> out = new ArrayList<>();
        root.get("traceEvents").forEach(e -> {
            if (e.get("ph").asText().equals(ph)) {
                out.add(e);
            }
        });
        return out;
    }

    static int pidNamed(JsonNode root, String name) {
        for (JsonNode e : events(root, "M")) {
            if (e.get("name").asText().equals("process_name") && e.get("args").get("name").asText().equals(name)) {
                return e.get("pid").asInt();
            }
        }
        throw new AssertionError("no process named " + name);
    }

    private static Map<String, Integer> trackIds(JsonNode root, int pid) {
        Map<String, Integer> ids = new HashMap<>();
        for (JsonNode e : events(root, "M")) {
            if (e.get("name").asText().equals("thread_name") && e.get("pid").asInt() == pid) {
                ids.put(e.get("args").get("name").asText(), e.get("tid").asInt());
            }
        }
        assertTrue(ids.keySet().containsAll(List.of("steps", "markers", "tail", "exposed comm", "attribution chain")),
                ids.toString());
        return ids;
    }

    /** Slices of one track as [start, end] relative to t0, by start. */
    private static List<List<Long>> slicesOn(JsonNode root, int tid, long t0) {
        int pid = pidNamed(root, "overlap-analyze");
        List<List<Long>> out = new ArrayList<>();
        for (JsonNode e : events(root, "X")) {
            if (e.get("pid").asInt() == pid && e.get("tid").asInt() == tid) {
                long s = ns(e.get("ts"));
                out.add(List.of(s - t0, s + ns(e.get("dur")) - t0));
            }
        }
        out.sort(Comparator.comparing(l -> l.get(0)));
        return out;
    }
}
