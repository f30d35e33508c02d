package io.overlapanalyze.cli.history;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.compare.DiffGateFixtures;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.cli.history.HistoryRun;
import io.overlapanalyze.cli.history.RunHistory;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * issue 28, "A history of runs": {@code summary --history}, {@code gate --baseline-history} and {@code history}.
 * The runs are written by the scenario generator: seed-1ms (step 7 ms, tail 1 ms, exposed comm 1 ms: the last
 * bucket's own transfer; samples/README.md) with 2 % jitter from a seed per run as the noise, and
 * late-last-bucket (the same model, the last all-reduce launched 300 µs late: tail 1.3 ms) as the regression.
 */
class RunHistoryTest {
    static final long MS = 1_000_000L;

    @TempDir
    static Path tmp;
    /** Twenty noisy runs of main, each gated against the history before it was appended, as CI would. */
    static Path db;
    static List<Integer> noisyExitCodes = new ArrayList<>();

    @BeforeAll
    static void twentyRuns() throws Exception {
        db = tmp.resolve("runs.db");
        for (int i = 0; i < 20; i++) {
            Path trace = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 100 + i);
            int seed = 100 + i;
            if (i >= 3) {
                CliRun g = CliRun.of("gate", "--baseline-history", db.toString(), "--branch", "main", trace.toString());
                noisyExitCodes.add(g.exitCode());
                assertEquals(0, g.exitCode(), () -> "noisy run " + seed + " must pass:\n" + g.out() + g.err());
            }
            CliRun s = expect(0, "summary", trace.toString(), "-o", tmp.resolve("run-" + i + ".json").toString(),
                    "--history", db.toString(), "--commit", "c" + i, "--branch", "main", "--label", "seed=" + (100 + i));
            assertTrue(s.err().contains("run " + (i + 1) + " appended"), s.err());
        }
    }

    @Test
    void noisyRunsPassAndARealRegressionFails() throws Exception {
        assertEquals(17, noisyExitCodes.size());
        // A later noisy run against the last 10 of main: passes, its baseline pooled from 10 runs of 6 steps.
        Path noisy = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 150);
        JsonNode pass = json(expect(0, "gate", "--baseline-history", db.toString(), "--branch", "main",
                noisy.toString(), "-f", "json").out());
        JsonNode step = entry(pass.get("checks"), "stepTime");
        assertNotEquals(0, step.get("absChange").asLong(), "the runs must differ by their noise, or this proves nothing");
        assertEquals(10 * step.get("samplesCurrent").asInt(), step.get("samplesBaseline").asInt(),
                "the baseline pools the last 10 runs, each as long as the current one");
        JsonNode three = json(expect(0, "gate", "--baseline-history", db.toString(), "--last", "3",
                noisy.toString(), "-f", "json").out());
        assertEquals(3 * step.get("samplesCurrent").asInt(),
                entry(three.get("checks"), "stepTime").get("samplesBaseline").asInt());

        // The regression: tail 1.0 → 1.3 ms (+30 %, over 10 % and 0.1 ms).
        Path late = DiffGateFixtures.seedRun(tmp, "late-last-bucket", 6, 2.0, 300);
        JsonNode bad = json(expect(1, "gate", "--baseline-history", db.toString(), "--branch", "main",
                late.toString(), "-f", "json").out());
        JsonNode tail = entry(bad.get("checks"), "tail");
        assertEquals("REGRESSION", tail.get("status").asText(), tail.toString());
        assertEquals(1.0 * MS, tail.get("baseline").asDouble(), 0.05 * MS);
        assertEquals(1.3 * MS, tail.get("current").asDouble(), 0.05 * MS);
    }

    @Test
    void onlyPassingRunsOfTheBranchAreABaseline() throws Exception {
        Path own = Files.copy(db, tmp.resolve("branches.db"));
        Path late = DiffGateFixtures.seedRun(tmp, "late-last-bucket", 6, 2.0, 301);
        // Ten regressed runs recorded as failed on main, and ten passing on another branch: neither is main's
        // baseline, so the regression still fails against main.
        for (int i = 0; i < 10; i++) {
            expect(0, "summary", late.toString(), "-o", "-", "--history", own.toString(), "--branch", "main", "--failed");
            expect(0, "summary", late.toString(), "-o", "-", "--history", own.toString(), "--branch", "feature");
        }
        expect(1, "gate", "--baseline-history", own.toString(), "--branch", "main", late.toString());
        // Against the other branch's passing runs the same run is no change.
        expect(0, "gate", "--baseline-history", own.toString(), "--branch", "feature", late.toString());
        CliRun none = expect(2, "gate", "--baseline-history", own.toString(), "--branch", "nope", late.toString());
        assertEquals(1, none.errLines().size(), none.err());
        assertTrue(none.err().contains("no passing run of branch nope"), none.err());
    }

    @Test
    void twoConcurrentWritersLoseNothing() throws Exception {
        Path shared = tmp.resolve("concurrent.db");
        String summary = Files.readString(tmp.resolve("run-0.json"));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (String writer : List.of("a", "b")) {
                // Each append opens its own connection, as each CI job's process does.
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        RunHistory.append(shared.toString(), new HistoryRun(null, "2026-12-02T00:00:00Z", null,
                                "main", Map.of("writer", writer, "n", String.valueOf(i)), true, summary));
                    }
                    return null;
                }));
            }
            for (Future<?> f : writers) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        List<HistoryRun> runs = RunHistory.read(shared.toString(), new RunHistory.Query(null, false, null));
        assertEquals(40, runs.size());
        Set<String> seen = new HashSet<>();
        Set<Long> ids = new HashSet<>();
        for (HistoryRun r : runs) {
            seen.add(r.labels().get("writer") + r.labels().get("n"));
            ids.add(r.id());
            assertEquals(summary, r.summary());
        }
        assertEquals(40, seen.size(), "every (writer, n) once");
        assertEquals(40, ids.size());
        JsonNode listed = json(expect(0, "history", shared.toString(), "-f", "json").out());
        assertEquals(40, listed.get("runs").size());
    }

    @Test
    void twoConcurrentWriterProcessesLoseNothing() throws Exception {
        Path shared = tmp.resolve("processes.db");
        Path summary = tmp.resolve("run-1.json");
        String javaExe = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> writers = new ArrayList<>();
        for (String writer : List.of("p", "q")) {
            writers.add(new ProcessBuilder(javaExe, "-cp", System.getProperty("java.class.path"),
                    HistoryAppender.class.getName(), shared.toString(), summary.toString(), writer, "20")
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("writer-" + writer + ".log").toFile()).start());
        }
        for (Process p : writers) {
            assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "a writer hung");
            assertEquals(0, p.exitValue(), () -> "writer failed: " + p);
        }
        List<HistoryRun> runs = RunHistory.read(shared.toString(), new RunHistory.Query(null, false, null));
        Set<String> seen = new HashSet<>();
        runs.forEach(r -> seen.add(r.labels().get("writer") + r.labels().get("n")));
        assertEquals(40, runs.size());
        assertEquals(40, seen.size(), "every (writer, n) once");
    }

    @Test
    void aDamagedMissingOrForeignDatabaseIsOneLineExitTwo() throws Exception {
        Path trace = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 400);
        Path truncated = Files.copy(db, tmp.resolve("truncated.db"));
        long size = Files.size(truncated);
        assertTrue(size > 8192, "the history spans pages: " + size);
        try (FileChannel ch = FileChannel.open(truncated, StandardOpenOption.WRITE)) {
            ch.truncate(size / 2);
        }
        Path text = Files.writeString(tmp.resolve("text.db"), "not a database at all, just text\n".repeat(100));
        Path foreign = tmp.resolve("foreign.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign);
             Statement st = c.createStatement()) {
            st.execute("CREATE TABLE runs (x TEXT)");
        }
        Path missing = tmp.resolve("missing.db");
        for (Path bad : List.of(truncated, text, foreign, missing)) {
            CliRun g = expect(2, "gate", "--baseline-history", bad.toString(), trace.toString());
            assertEquals(1, g.errLines().size(), g.err());
            assertTrue(g.err().startsWith("overlap-analyze: " + bad), g.err());
            assertEquals("", g.out());
            CliRun h = expect(2, "history", bad.toString());
            assertEquals(1, h.errLines().size(), h.err());
        }
        assertTrue(Files.notExists(missing), "a reader never creates the database");
        // A row whose summary is not one is read back through the summary's own checks: named, exit 2.
        Path badRow = Files.copy(db, tmp.resolve("bad-row.db"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + badRow);
             Statement st = c.createStatement()) {
            st.execute("INSERT INTO runs (time, branch, labels, passed, summary) VALUES "
                    + "('2026-12-02T00:00:00Z', 'main', '{}', 1, '{\"kind\": \"overlap-analyze summary\"}')");
        }
        CliRun row = expect(2, "gate", "--baseline-history", badRow.toString(), trace.toString());
        assertEquals(1, row.errLines().size(), row.err());
        assertTrue(row.err().contains(badRow + ", run 21: "), row.err());
        // A writer never adds its table to another program's database.
        CliRun w = expect(2, "summary", trace.toString(), "-o", "-", "--history", foreign.toString());
        assertTrue(w.err().contains("not an overlap-analyze run history"), w.err());
        // Exactly one baseline.
        expect(2, "gate", trace.toString());
        expect(2, "gate", "--baseline", trace.toString(), "--baseline-history", db.toString(), trace.toString());
        expect(2, "gate", "--baseline", trace.toString(), "--last", "3", trace.toString());
        expect(2, "summary", trace.toString(), "--label", "a=b");
        expect(2, "summary", trace.toString(), "--history", tmp.resolve("l.db").toString(), "--label", "novalue");
    }

    @Test
    void aJdbcUrlWorksInPlaceOfAPathAndANewerSchemaIsRefused() throws Exception {
        Path file = tmp.resolve("by-url.db");
        Path trace = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 500);
        String url = "jdbc:sqlite:" + file.toAbsolutePath();
        for (int i = 0; i < 3; i++) {
            expect(0, "summary", trace.toString(), "-o", "-", "--history", url, "--branch", "main");
        }
        assertEquals(3, json(expect(0, "history", file.toString(), "-f", "json").out()).get("runs").size());
        expect(0, "gate", "--baseline-history", url, "--branch", "main", trace.toString());

        Path newer = Files.copy(file, tmp.resolve("newer.db"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + newer);
             Statement st = c.createStatement()) {
            st.execute("PRAGMA user_version = " + (RunHistory.SCHEMA_VERSION + 1));
        }
        CliRun g = expect(2, "gate", "--baseline-history", newer.toString(), trace.toString());
        assertTrue(g.err().contains("is newer than this overlap-analyze reads"), g.err());
        CliRun w = expect(2, "summary", trace.toString(), "-o", "-", "--history", newer.toString());
        assertEquals(1, w.errLines().size(), w.err());
    }

    @Test
    void historyListsAndDrawsTheRuns() throws Exception {
        Path small = tmp.resolve("small.db");
        Path healthy = DiffGateFixtures.seedRun(tmp, "seed-1ms", 4, 0.0, 1);
        Path late = DiffGateFixtures.seedRun(tmp, "late-last-bucket", 4, 0.0, 1);
        expect(0, "summary", healthy.toString(), "-o", "-", "--history", small.toString(), "--commit",
                "0123456789abcdef0123", "--branch", "main\u001b[31m", "--label", "gpu=A100");
        expect(0, "summary", late.toString(), "-o", "-", "--history", small.toString(), "--failed");

        JsonNode runs = json(expect(0, "history", small.toString(), "-f", "json").out()).get("runs");
        assertEquals(2, runs.size());
        JsonNode first = runs.get(0);
        assertEquals(1, first.get("id").asLong());
        assertEquals("0123456789abcdef0123", first.get("commit").asText());
        assertEquals("A100", first.get("labels").get("gpu").asText());
        assertTrue(first.get("passed").asBoolean());
        assertEquals(7 * MS, first.get("stepTimeNs").asLong());
        assertEquals(MS, first.get("tailNs").asLong());
        assertEquals(MS, first.get("exposedCommNs").asLong());
        JsonNode second = runs.get(1);
        assertFalse(second.get("passed").asBoolean());
        assertTrue(second.get("commit").isNull(), "no commit given, none in the environment: null, never made up");
        assertEquals(1_300_000L, second.get("tailNs").asLong());

        String text = expect(0, "history", small.toString()).out();
        assertFalse(text.contains("\u001b"), "a branch name's escape sequence is never sent to the terminal");
        assertTrue(text.contains("0123456789ab"), text);
        assertEquals(4, text.lines().count(), text); // title, header, two runs
        assertEquals(1, expect(0, "history", small.toString(), "--passed-only", "-f", "json").out()
                .lines().filter(l -> l.contains("\"id\"")).count());

        Path html = tmp.resolve("history.html");
        expect(0, "history", small.toString(), "--html", html.toString(), "-o", tmp.resolve("h.txt").toString());
        Document doc = Jsoup.parse(Files.readString(html));
        assertTrue(doc.select("script").isEmpty());
        assertEquals(4, doc.select("svg.history").size());
        Element tailChart = doc.selectFirst("svg.history.tail");
        List<String> tails = tailChart.select("circle").eachAttr("data-ns");
        assertEquals(List.of("1000000", "1300000"), tails);
        assertNotEquals("", tailChart.select("circle").get(1).attr("style"), "a failed run is drawn hollow");
        assertFalse(doc.html().contains("\u001b"));
    }
}
