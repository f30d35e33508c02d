package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import io.overlapanalyze.formats.TraceFormats;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.InputStream;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device layouts other than one CUDA GPU per file, through the whole product: two GPUs driven by
 * one process (one rank per device, never merged), MTIA-style accelerators (device work, not "no
 * device activity"), and every shared real Kineto trace (no rank listed twice for one file).
 */
class DeviceLayoutsEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static JsonNode analyseJson(Path trace, CliRun[] keep) throws Exception {
        CliRun run = CliRun.of(trace.toString(), "-f", "json");
        keep[0] = run;
        assertEquals(0, run.exitCode(), run.err());
        return JSON.readTree(run.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 1", "seed-4ms, 4"})
    void twoDevicesInOneFileGiveTheSeedTableOnEachDevice(String scenario, int commMs) throws Exception {
        Path trace = tmp.resolve("two.pt.trace.json");
        CliRun synth = CliRun.of("synth", scenario, "--devices", "2", "--second-device-lag-us", "3000", "-o", trace.toString());
        assertEquals(0, synth.exitCode(), synth.err());

        List<RankTrace> ranks = TraceFormats.standard().read(trace);
        assertEquals(2, ranks.size(), "one rank per device");
        for (RankTrace t : ranks) {
            RankReport r = RankAnalyzer.analyze(t, AnalysisOptions.defaults());
            assertEquals(1, r.steps().size());
            // The seed's §7 table on each device: merged, comm busy would be the union of both
            // devices' reductions and the start delay would compare one device with the other.
            SeedTable.assertHolds(r.steps().get(0), scenario, 0, commMs);
        }

        CliRun[] run = new CliRun[1];
        JsonNode report = analyseJson(trace, run);
        JsonNode rs = report.get("ranks");
        assertEquals(2, rs.size());
        assertEquals(trace + " device 0", rs.get(0).get("source").asText());
        assertEquals(trace + " device 1", rs.get(1).get("source").asText());
        assertEquals(0, rs.get(0).get("rank").asInt());
        assertEquals(2, rs.get(1).get("rank").asInt());
        for (JsonNode r : rs) {
            assertTrue(r.get("warnings").toString().contains("holds the work of 2 devices (0, 1)"), r.toString());
        }
        assertDistinctRanksPerFile(report, trace);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 1", "seed-4ms, 4"})
    void anMtiaLaneGivesTheSeedTable(String scenario, int commMs) throws Exception {
        Path trace = tmp.resolve("mtia.pt.trace.json");
        CliRun synth = CliRun.of("synth", scenario, "--accelerator", "mtia", "-o", trace.toString());
        assertEquals(0, synth.exitCode(), synth.err());
        List<RankTrace> ranks = TraceFormats.standard().read(trace);
        assertEquals(1, ranks.size());
        RankReport r = RankAnalyzer.analyze(ranks.get(0), AnalysisOptions.defaults());
        assertEquals(1, r.steps().size());
        // The per-step dma_request lies inside the window and event_records are synchronisation:
        // every number of the table is the seed's.
        SeedTable.assertHolds(r.steps().get(0), scenario, 0, commMs);
        assertEquals(10, r.steps().get(0).deviceIntervals());
    }

    /**
     * Without a lag the second device runs exactly the first one's timeline: for every built-in
     * scenario, each device's steps are those of the scenario written for one device (whose
     * numbers the scenario tests check against the plan), relative to the step's device start.
     */
    @Test
    void withoutALagEachDeviceIsTheSingleDeviceScenario() throws Exception {
        for (String scenario : io.overlapanalyze.synth.BuiltinScenarios.names()) {
            Path one = tmp.resolve(scenario + "-one.json");
            Path two = tmp.resolve(scenario + "-two.json");
            assertEquals(0, CliRun.of("synth", scenario, "-o", one.toString()).exitCode());
            assertEquals(0, CliRun.of("synth", scenario, "--devices", "2", "-o", two.toString()).exitCode());
            List<String> reference = stepFacts(RankAnalyzer.analyze(TraceFormats.standard().read(one).get(0),
                    AnalysisOptions.defaults()));
            List<RankTrace> ranks = TraceFormats.standard().read(two);
            assertEquals(2, ranks.size(), scenario);
            for (RankTrace t : ranks) {
                assertEquals(reference, stepFacts(RankAnalyzer.analyze(t, AnalysisOptions.defaults())),
                        scenario + " " + t.source());
            }
        }
    }

    /** Per step: every number, markers relative to the step's device start. */
    private static List<String> stepFacts(RankReport r) {
        List<String> out = new ArrayList<>();
        for (io.overlapanalyze.report.StepReport s : r.steps()) {
            long t0 = s.deviceStartNs();
            out.add(s.name() + " partial=" + s.partial() + " time=" + s.stepTimeNs() + " comm=" + s.commBusyNs()
                    + " compute=" + s.computeBusyNs() + " overlapped=" + s.overlappedNs() + " exposed="
                    + s.exposedCommNs() + " idle=" + s.idleNs() + " tail=" + s.tailNs() + " startDelay="
                    + s.startDelayNs() + " launchLate=" + s.launchLateNs() + " grads=" + s.gradCollectives()
                    + " kind=" + (s.attribution() == null ? null : s.attribution().kind())
                    + " ready=" + (s.markers() == null ? null : s.markers().firstBucketReadyNs() - t0)
                    + " lastReduceEnd=" + (s.markers() == null ? null : s.markers().lastReduceEndNs() - t0));
        }
        return out;
    }

    @Test
    void synthRefusesLayoutsItCannotWrite() {
        CliRun nsys = CliRun.of("synth", "seed-4ms", "--devices", "2", "-o", tmp.resolve("x.sqlite").toString());
        assertEquals(2, nsys.exitCode());
        assertTrue(nsys.err().contains("--devices: Kineto traces only"), nsys.err());
        CliRun both = CliRun.of("synth", "seed-4ms", "--devices", "2", "--accelerator", "mtia", "-o",
                tmp.resolve("x.json").toString());
        assertEquals(2, both.exitCode());
        CliRun three = CliRun.of("synth", "seed-4ms", "--devices", "3", "-o", tmp.resolve("x.json").toString());
        assertEquals(2, three.exitCode());
        assertTrue(three.err().contains("--devices: 1 or 2"), three.err());
        CliRun job = CliRun.of("synth", "seed-4ms", "--ranks", "2", "--accelerator", "mtia", "-o",
                tmp.resolve("job").toString());
        assertEquals(2, job.exitCode());
        assertFalse(Files.exists(tmp.resolve("job")));
    }

    /** µs text → ns, half up. */
    private static long ns(JsonNode v) {
        return v.decimalValue().movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    /** |∪ intervals| of {start, end} pairs. */
    private static long union(List<long[]> intervals) {
        List<long[]> s = new ArrayList<>(intervals);
        s.sort((a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long end = Long.MIN_VALUE;
        for (long[] iv : s) {
            if (iv[0] >= end) {
                total += iv[1] - iv[0];
                end = iv[1];
            } else if (iv[1] > end) {
                total += iv[1] - end;
                end = iv[1];
            }
        }
        return total;
    }

    @Test
    void theRealMtiaTraceHasDeviceActivity() throws Exception {
        Path trace = SharedTraces.kineto("hta_mtia_inference_rank0.json.gz");
        // Expected values from the file itself, by this test's rules: dma_request is memory traffic,
        // event_record / event_wait synchronisation (never busy), every other mtia_ccp_events name a kernel.
        JsonNode root;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(trace))) {
            root = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(in);
        }
        List<long[]> kernels = new ArrayList<>();
        List<long[]> busy = new ArrayList<>();
        for (JsonNode e : root.get("traceEvents")) {
            if (!"mtia_ccp_events".equals(e.path("cat").asText())) {
                continue;
            }
            String name = e.get("name").asText();
            long[] iv = {ns(e.get("ts")), ns(e.get("ts")) + ns(e.get("dur"))};
            if (name.equals("event_record") || name.equals("event_wait")) {
                continue;
            }
            busy.add(iv);
            if (!name.equals("dma_request")) {
                kernels.add(iv);
            }
        }
        long computeBusy = union(kernels);
        long deviceBusy = union(busy);

        CliRun[] run = new CliRun[1];
        JsonNode report = analyseJson(trace, run);
        String all = run[0].out() + run[0].err();
        assertFalse(all.contains("no device activity"), all);
        JsonNode rank = report.get("ranks").get(0);
        assertEquals(1, report.get("ranks").size());
        JsonNode step = rank.get("steps").get(0);
        assertEquals(computeBusy, step.get("computeBusyNs").asLong(), "|K| = the union of the MTIA kernels");
        assertEquals(414_085_123L, computeBusy);
        assertEquals(0, step.get("commBusyNs").asLong());
        // Idle is the window without any busy device work: the window holds every busy interval,
        // so idle + |compute ∪ memcpy| is the window, whichever events close it.
        assertEquals(step.get("stepTimeNs").asLong(), step.get("idleNs").asLong() + deviceBusy);
        assertTrue(step.get("stepTimeNs").asLong() <= 443_275_704L, "never beyond the span of all device events");
        assertEquals(1313, step.get("deviceIntervals").asInt());
    }

    @Test
    void noRealKinetoTraceListsARankTwice() throws Exception {
        Path dir = SharedTraces.root().resolve("kineto");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().contains(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        for (Path f : files) {
            CliRun[] run = new CliRun[1];
            JsonNode report = analyseJson(f, run);
            assertTrue(report.get("ranks").size() >= 1, f.toString());
            assertDistinctRanksPerFile(report, f);
        }
    }

    /** The ranks read from {@code file} (sources {@code file} or {@code file device N}) have distinct ids. */
    private static void assertDistinctRanksPerFile(JsonNode report, Path file) {
        Map<String, Set<Integer>> idsPerFile = new HashMap<>();
        for (JsonNode r : report.get("ranks")) {
            String source = r.get("source").asText();
            String fileOf = source.replaceFirst(" device \\d+$", "");
            assertEquals(file.toString(), fileOf);
            assertTrue(idsPerFile.computeIfAbsent(fileOf, k -> new HashSet<>()).add(r.get("rank").asInt()),
                    file + ": rank " + r.get("rank").asInt() + " listed twice");
        }
        JsonNode cross = report.get("crossRank");
        if (cross != null && cross.has("inputProblems")) {
            for (JsonNode p : cross.get("inputProblems")) {
                assertFalse(p.toString().contains("is also in " + file), "a duplicate of its own file: " + p);
            }
        }
    }
}
