package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.overlapanalyze.formats.sqlite.ReadOnlySqlite;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every real trace of ../shared/traces (Kineto, Nsight, Ascend), through the CLI: exit 0; a step
 * period on every step with device work; idle and periods over the steps never above the device
 * span (metrics.md §2, §5); {@code --steps} naming a step gives exactly that step of the full run
 * (§5); and {@code preCapture} counts exactly the device events without a launch whose correlation
 * id is below every runtime call's (§2), counted here from the file itself: Kineto JSON with
 * Jackson's streaming parser, Nsight exports with SQL. Ascend captures carry no correlation ids;
 * their launches are flows, and none of the shared captures has device work before its first one.
 */
class RealTraceStepsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> KINETO_DEVICE = Set.of("kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset",
            "Memset", "cuda_sync", "cuda_event");
    private static final Set<String> KINETO_RUNTIME = Set.of("cuda_runtime", "cuda_driver", "Runtime");

    static Stream<Path> realTraces() throws IOException {
        Path root = SharedTraces.root();
        List<Path> out = new ArrayList<>();
        try (Stream<Path> k = Files.list(root.resolve("kineto"))) {
            k.filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".json.gz")).sorted().forEach(out::add);
        }
        try (Stream<Path> n = Files.list(root.resolve("nsys"))) {
            n.filter(p -> p.toString().endsWith(".sqlite")).sorted().forEach(out::add);
        }
        try (Stream<Path> a = Files.walk(root.resolve("ascend"), 2)) {
            a.filter(p -> p.getFileName().toString().endsWith("_ascend_pt")).sorted().forEach(out::add);
        }
        assertTrue(out.size() >= 17, "expected the shared traces, found " + out);
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("realTraces")
    void stepsPeriodsPreCaptureAndSelection(Path trace) throws Exception {
        CliRun run = CliRun.of("-f", "json", trace.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        JsonNode report = JSON.readTree(run.out());
        List<Long> preCaptureByRank = new ArrayList<>();
        for (JsonNode rank : report.get("ranks")) {
            checkPeriods(rank, trace);
            JsonNode pre = rank.get("preCapture");
            preCaptureByRank.add(pre == null || pre.isNull() ? 0L : pre.get("intervals").asLong());
        }
        // Ranks (processes) without any are left out on both sides: SQL has no row for them.
        List<Long> expected = new ArrayList<>(expectedPreCapture(trace).stream().filter(c -> c > 0).sorted().toList());
        List<Long> actual = preCaptureByRank.stream().filter(c -> c > 0).sorted().toList();
        assertEquals(expected, actual, trace + ": pre-capture device events per rank");
        checkSelection(trace, report);
    }

    /** Periods on every step with work; idle ≤ periods ≤ device span, per step sum and in the totals. */
    private static void checkPeriods(JsonNode rank, Path trace) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long periods = 0;
        long idle = 0;
        for (JsonNode s : rank.get("steps")) {
            String where = trace.getFileName() + " rank " + rank.get("rank") + " " + s.get("name").asText() + ": ";
            if (s.get("deviceStartNs").isNull()) {
                assertTrue(s.get("stepPeriodNs").isNull(), where + "no device work, no period");
                continue;
            }
            assertTrue(s.get("stepPeriodNs").isIntegralNumber(), where + "stepPeriodNs");
            assertTrue(s.get("windowOverlapNs").isIntegralNumber(), where + "windowOverlapNs");
            long period = s.get("stepPeriodNs").asLong();
            assertTrue(period >= 0 && s.get("idleNs").asLong() >= 0 && s.get("idleNs").asLong() <= period,
                    where + "0 ≤ idle ≤ period: " + s.get("idleNs") + ", " + period);
            first = Math.min(first, s.get("deviceStartNs").asLong());
            last = Math.max(last, s.get("deviceEndNs").asLong());
            periods += period;
            idle += s.get("idleNs").asLong();
        }
        if (first == Long.MAX_VALUE) {
            return;
        }
        long span = last - first;
        assertTrue(periods <= span, trace + ": periods " + periods + " ≤ device span " + span);
        assertTrue(idle <= span, trace + ": idle " + idle + " ≤ device span " + span);
        JsonNode totals = rank.get("totals");
        assertTrue(totals.get("idleNs").asLong() <= totals.get("stepPeriodNs").asLong()
                && totals.get("stepPeriodNs").asLong() <= span, trace + ": totals " + totals);
    }

    /** {@code --steps NAME} gives, for every step, exactly the step of the full run. */
    private static void checkSelection(Path trace, JsonNode full) throws IOException {
        Set<String> names = new HashSet<>();
        for (JsonNode rank : full.get("ranks")) {
            rank.get("steps").forEach(s -> names.add(s.get("name").asText()));
        }
        for (String name : names) {
            CliRun run = CliRun.of("-f", "json", "--steps", name, trace.toString());
            assertEquals(ExitCodes.OK, run.exitCode(), run.err());
            JsonNode selected = JSON.readTree(run.out());
            for (int r = 0; r < full.get("ranks").size(); r++) {
                JsonNode fullRank = full.get("ranks").get(r);
                JsonNode oneRank = selected.get("ranks").get(r);
                for (JsonNode s : fullRank.get("steps")) {
                    if (!s.get("name").asText().equals(name)) {
                        continue;
                    }
                    JsonNode match = null;
                    for (JsonNode o : oneRank.get("steps")) {
                        if (o.get("name").asText().equals(name)) {
                            match = o;
                        }
                    }
                    assertNotNull(match, trace + ": --steps " + name + " keeps the step");
                    assertEquals(s, match, trace + ": --steps " + name + " changes nothing of the step");
                }
                assertEquals(fullRank.get("preCapture"), oneRank.get("preCapture"), trace + ": preCapture");
            }
        }
    }

    /** Per rank (any order), the device events launched before the capture, from the file; empty: none expected. */
    private static List<Long> expectedPreCapture(Path trace) throws Exception {
        String name = trace.getFileName().toString();
        if (name.endsWith(".sqlite")) {
            return nsysPreCapture(trace);
        }
        if (name.endsWith(".json") || name.endsWith(".json.gz")) {
            return new ArrayList<>(List.of(kinetoPreCapture(trace)));
        }
        return new ArrayList<>();
    }

    /** Kineto: device events whose correlation matches no runtime call and is below all of theirs. */
    private static long kinetoPreCapture(Path trace) throws IOException {
        List<Long> device = new ArrayList<>();
        Set<Long> runtime = new HashSet<>();
        long min = Long.MAX_VALUE;
        try (InputStream raw = Files.newInputStream(trace);
             InputStream in = trace.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             JsonParser p = JSON.getFactory().createParser(in)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && "traceEvents".equals(p.currentName())
                        && p.getParsingContext().getParent() != null && p.getParsingContext().getParent().inRoot()) {
                    p.nextToken();
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        JsonNode e = JSON.readTree(p);
                        JsonNode corr = e.path("args").path("correlation");
                        if (!"X".equals(e.path("ph").asText()) || !corr.isIntegralNumber()) {
                            continue;
                        }
                        String cat = e.path("cat").asText();
                        if (KINETO_RUNTIME.contains(cat)) {
                            runtime.add(corr.asLong());
                            min = Math.min(min, corr.asLong());
                        } else if (KINETO_DEVICE.contains(cat) && e.has("ts") && e.has("dur") && e.get("pid").isNumber()) {
                            device.add(corr.asLong());
                        }
                    }
                }
            }
        }
        long count = 0;
        for (long c : device) {
            if (!runtime.contains(c) && c < min) {
                count++;
            }
        }
        return count;
    }

    /** Nsight: per process, kernels, copies and sets whose correlationId no call of the process has, below all of them. */
    private static List<Long> nsysPreCapture(Path file) throws Exception {
        Map<Long, Long> byProcess = new HashMap<>();
        try (ReadOnlySqlite db = ReadOnlySqlite.open(file); Statement st = db.connection().createStatement()) {
            Set<String> tables = new HashSet<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            if (!tables.contains("CUPTI_ACTIVITY_KIND_RUNTIME")) {
                return new ArrayList<>();
            }
            for (String t : List.of("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET")) {
                if (!tables.contains(t)) {
                    continue;
                }
                String sql = "WITH rt AS (SELECT (globalTid >> 24) & 16777215 AS p, correlationId AS c"
                        + " FROM CUPTI_ACTIVITY_KIND_RUNTIME), mn AS (SELECT p, min(c) AS m FROM rt GROUP BY p)"
                        + " SELECT (d.globalPid >> 24) & 16777215 AS pid, count(*) FROM " + t + " d"
                        + " JOIN mn ON mn.p = (d.globalPid >> 24) & 16777215"
                        + " WHERE d.correlationId < mn.m"
                        + " AND NOT EXISTS (SELECT 1 FROM rt WHERE rt.p = mn.p AND rt.c = d.correlationId) GROUP BY pid";
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        byProcess.merge(rs.getLong(1), rs.getLong(2), Long::sum);
                    }
                }
            }
        }
        return new ArrayList<>(byProcess.values());
    }
}
