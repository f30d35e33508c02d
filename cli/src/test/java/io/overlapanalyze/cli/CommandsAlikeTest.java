package io.overlapanalyze.cli;

import io.overlapanalyze.cli.compare.DiffGateFixtures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.render.JsonRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that reads traces reads them alike: the same input options, a stray non-trace
 * file in a job directory skipped with a line naming it, an unreadable rank named while the others
 * are analysed (except that a gate fails on it unless told otherwise).
 */
class CommandsAlikeTest {
    /** The input options of the issue: file selection, rank naming, steps, limits, kernel patterns. */
    private static final Set<String> INPUT_OPTIONS = Set.of("--include", "--rank-regex", "--step-pattern",
            "--max-input-size", "--max-ratio", "--steps", "--include-partial", "--comm-kernel", "--fused-kernel",
            "--compute-kernel", "--kernel-patterns");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z-]*");

    @TempDir
    Path dir;

    private Path good;

    /** A healthy 6-step run, one rank. */
    private Path good() throws IOException {
        if (good == null) {
            good = DiffGateFixtures.seedRun(dir, "seed-1ms", 6, 0, 1);
        }
        return good;
    }

    /** A job directory: the rank's trace and a run configuration that is not a trace. */
    private Path jobWithConfig(String name) throws IOException {
        Path job = Files.createDirectories(dir.resolve(name));
        Files.copy(good(), job.resolve("rank-0.pt.trace.json.gz"));
        Files.writeString(job.resolve("config.json"), "{\"lr\": 0.1, \"epochs\": 3}\n");
        return job;
    }

    private static Set<String> inputOptionsInHelp(String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.add("--help");
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        Set<String> found = new TreeSet<>();
        Matcher m = OPTION.matcher(run.out());
        while (m.find()) {
            if (INPUT_OPTIONS.contains(m.group())) {
                found.add(m.group());
            }
        }
        return found;
    }

    @Test
    void everyTraceReadingCommandListsTheSameInputOptions() {
        Set<String> analyze = inputOptionsInHelp();
        assertEquals(new TreeSet<>(INPUT_OPTIONS), analyze, "analyze --help");
        for (String command : List.of("summary", "diff", "gate", "whatif", "annotate")) {
            assertEquals(analyze, inputOptionsInHelp(command), command + " --help");
        }
    }

    @Test
    void everyCommandAcceptsEveryInputOption() throws IOException {
        Path job = jobWithConfig("job");
        String[] options = {"--include", "*.json.gz", "--rank-regex", "rank-(\\d+)", "--step-pattern", "ProfilerStep",
                "--max-input-size", "1g", "--max-ratio", "300", "--steps", "1-5", "--include-partial",
                "--comm-kernel", "nccl"};
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        List<String[]> commands = List.of(new String[] {"-o", out.resolve("a.txt").toString(), job.toString()},
                new String[] {"summary", "-o", out.resolve("s.json").toString(), job.toString()},
                new String[] {"diff", job.toString(), job.toString()},
                new String[] {"gate", "--baseline", job.toString(), job.toString()},
                new String[] {"whatif", job.toString()},
                new String[] {"annotate", "-o", out.resolve("t.json").toString(), job.toString()});
        for (String[] command : commands) {
            String[] args = Stream.concat(Stream.of(command), Stream.of(options)).toArray(String[]::new);
            CliRun run = CliRun.of(args);
            assertEquals(0, run.exitCode(), String.join(" ", command) + ": " + run.err());
            // --include '*.json.gz' leaves config.json out by name: nothing to skip.
            assertFalse(run.err().contains("config.json"), run.err());
        }
    }

    @Test
    void summaryNamesRanksWithTheRankRegex() throws IOException {
        ObjectNode trace = (ObjectNode) JsonRenderer.mapper().readTree(
                new java.util.zip.GZIPInputStream(Files.newInputStream(good())));
        trace.remove("distributedInfo"); // the trace no longer says its rank
        Path file = dir.resolve("worker7.json");
        JsonRenderer.mapper().writeValue(file.toFile(), trace);
        Path summary = dir.resolve("s.json");
        CliRun run = CliRun.of("summary", "--rank-regex", "worker(\\d+)", "-o", summary.toString(), file.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode rank = JsonRenderer.mapper().readTree(summary.toFile()).get("ranks").get(0);
        assertEquals(7, rank.get("rank").asInt(), rank.get("rankSource").toString());
        assertEquals("USER", rank.get("rankSource").asText());
    }

    private static void assertSkipsConfig(CliRun run, Path job, String what) {
        assertEquals(0, run.exitCode(), what + ": " + run.err());
        String config = job.resolve("config.json").toString();
        assertTrue(run.errLines().stream().anyMatch(l -> l.contains(config) && l.contains("not a trace")
                && l.contains("skipped")), what + " did not name the skipped file:\n" + run.err());
    }

    @Test
    void aStrayConfigFileIsSkippedByEveryCommand() throws IOException {
        Path job = jobWithConfig("job");
        Path other = jobWithConfig("other");
        assertSkipsConfig(CliRun.of("-f", "json", job.toString()), job, "analyze");
        assertSkipsConfig(CliRun.of("summary", "-o", dir.resolve("s.json").toString(), job.toString()), job, "summary");
        assertSkipsConfig(CliRun.of("diff", job.toString(), other.toString()), job, "diff");
        assertSkipsConfig(CliRun.of("diff", job.toString(), other.toString()), other, "diff, side B");
        assertSkipsConfig(CliRun.of("gate", "--baseline", other.toString(), job.toString()), job, "gate");
        assertSkipsConfig(CliRun.of("annotate", "-o", dir.resolve("t.json").toString(), job.toString()), job,
                "annotate");
        assertSkipsConfig(CliRun.of("whatif", job.toString()), job, "whatif");
        // The skipped file is no input of the job: no cross-rank section for one rank.
        JsonNode report = JsonRenderer.mapper().readTree(CliRun.of("-f", "json", job.toString()).out());
        assertEquals(1, report.get("ranks").size());
        assertTrue(report.get("crossRank") == null || report.get("crossRank").isNull(), report.get("crossRank") + "");
    }

    @Test
    void aNonTraceNamedOnTheCommandLineIsStillAnError() throws IOException {
        Path config = jobWithConfig("job").resolve("config.json");
        CliRun run = CliRun.of(config.toString());
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains(config.toString()), run.err());
        CliRun only = CliRun.of("summary", Files.createDirectories(dir.resolve("empty")).toString());
        assertEquals(2, only.exitCode());
    }

    @Test
    void aDirectoryOfNothingButNonTracesIsExit2NamingTheFile() throws IOException {
        Path d = Files.createDirectories(dir.resolve("configs"));
        Files.writeString(d.resolve("config.json"), "{\"lr\": 0.1}");
        for (String[] command : List.of(new String[] {d.toString()}, new String[] {"summary", d.toString()},
                new String[] {"whatif", d.toString()})) {
            CliRun run = CliRun.of(command);
            assertEquals(2, run.exitCode(), run.err());
            assertTrue(run.err().contains(d.resolve("config.json").toString()), run.err());
        }
    }

    @Test
    void whatifReadsADirectory() throws IOException {
        Path job = jobWithConfig("job");
        CliRun fromDir = CliRun.of("whatif", "-f", "json", job.toString());
        assertEquals(0, fromDir.exitCode(), fromDir.err());
        CliRun fromFile = CliRun.of("whatif", "-f", "json", job.resolve("rank-0.pt.trace.json.gz").toString());
        assertEquals(0, fromFile.exitCode(), fromFile.err());
        assertEquals(JsonRenderer.mapper().readTree(fromFile.out()).get("options"),
                JsonRenderer.mapper().readTree(fromDir.out()).get("options"), "the directory's one rank is replayed");
    }

    /** A job of two ranks, one of which cannot be read (cut before its first complete event). */
    private Path jobWithUnreadableRank(String name) throws IOException {
        Path job = Files.createDirectories(dir.resolve(name));
        Files.copy(good(), job.resolve("rank-0.pt.trace.json.gz"));
        Files.writeString(job.resolve("rank-1.pt.trace.json"), "{\"traceEvents\": [ {\"ph\": \"X\", \"ts\": ");
        return job;
    }

    @Test
    void anUnreadableRankIsNamedAndTheOthersAreAnalysed() throws IOException {
        Path job = jobWithUnreadableRank("job");
        String bad = job.resolve("rank-1.pt.trace.json").toString();
        for (String[] command : List.of(new String[] {"-f", "json", "-o", dir.resolve("r.json").toString(), job.toString()},
                new String[] {"summary", "-o", dir.resolve("s.json").toString(), job.toString()},
                new String[] {"diff", good().toString(), job.toString()},
                new String[] {"annotate", "-o", dir.resolve("t.json").toString(), job.toString()})) {
            CliRun run = CliRun.of(command);
            assertEquals(0, run.exitCode(), String.join(" ", command) + ": " + run.err());
            assertTrue(run.errLines().stream().anyMatch(l -> l.startsWith("overlap-analyze: warning: ")
                    && l.contains(bad)), String.join(" ", command) + ":\n" + run.err());
        }
        JsonNode summary = JsonRenderer.mapper().readTree(dir.resolve("s.json").toFile());
        assertEquals(1, summary.get("ranks").size(), "the readable rank is in the summary");
        JsonNode diff = JsonRenderer.mapper().readTree(CliRun.of("diff", "-f", "json", good().toString(),
                job.toString()).out());
        assertTrue(diff.get("warnings").toString().contains("B: " + bad), diff.get("warnings").toString());
    }

    @Test
    void aGateFailsOnAnUnreadableRankUnlessAllowed() throws IOException {
        Path job = jobWithUnreadableRank("job");
        String bad = job.resolve("rank-1.pt.trace.json").toString();
        CliRun strict = CliRun.of("gate", "--baseline", good().toString(), job.toString());
        assertEquals(2, strict.exitCode(), strict.err());
        assertTrue(strict.errLines().stream().anyMatch(l -> l.contains(bad) && l.contains("--allow-unreadable")),
                strict.err());
        CliRun baseline = CliRun.of("gate", "--baseline", job.toString(), good().toString());
        assertEquals(2, baseline.exitCode(), "an unreadable baseline fails too: " + baseline.err());

        CliRun allowed = CliRun.of("gate", "--allow-unreadable", "-f", "json", "--baseline", good().toString(),
                job.toString());
        assertEquals(0, allowed.exitCode(), allowed.err());
        assertTrue(allowed.errLines().stream().anyMatch(l -> l.startsWith("overlap-analyze: warning: current: ")
                && l.contains(bad)), allowed.err());
        JsonNode warnings = JsonRenderer.mapper().readTree(allowed.out()).get("warnings");
        assertTrue(warnings.toString().contains("current: " + bad), warnings.toString());
    }

    @Test
    void whatifReplaysOnlyTheSelectedSteps() throws IOException {
        JsonNode all = JsonRenderer.mapper().readTree(CliRun.of("whatif", "-f", "json", good().toString()).out());
        assertEquals(6, all.get("steps").size(), all.get("steps").toString());
        String picked = all.get("steps").get(2).asText() + "," + all.get("steps").get(3).asText();
        CliRun two = CliRun.of("whatif", "-f", "json", "--steps", picked, good().toString());
        assertEquals(0, two.exitCode(), two.err());
        JsonNode steps = JsonRenderer.mapper().readTree(two.out()).get("steps");
        assertEquals(List.of(all.get("steps").get(2).asText(), all.get("steps").get(3).asText()),
                List.of(steps.get(0).asText(), steps.get(1).asText()), steps.toString());
        assertEquals(2, steps.size());
        CliRun none = CliRun.of("whatif", "--steps", "77", good().toString());
        assertEquals(2, none.exitCode(), none.err());
        assertTrue(none.err().contains("--steps 77"), none.err());
    }
}
