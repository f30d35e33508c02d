package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.Main;
import io.overlapanalyze.cli.analyse.SamplesTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: a gate that cannot pass a job that would hang, nor input it did not read, nor a change
 * it could not test. Each case as the issue tells it, on the committed samples or generated runs.
 */
class GateTrustTest {
    @TempDir
    static Path tmp;

    static Path sample(String name) {
        return SamplesTest.samples().resolve(name);
    }

    /** Case 1: the same times, but rank 2 issues ALL_REDUCE where the others REDUCE_SCATTER (samples/README-jobs.md). */
    @Test
    void aCrossRankErrorFailsTheGateUnlessAllowed() throws Exception {
        String base = sample("job-healthy-4rank").toString();
        String bad = sample("job-order-mismatch").toString();
        JsonNode g = json(expect(1, "gate", "--baseline", base, bad, "-f", "json").out());
        assertEquals("REGRESSION", g.get("result").asText());
        JsonNode check = entry(g.get("checks"), "crossRankErrors");
        assertEquals("REGRESSION", check.get("status").asText());
        assertEquals(1, check.get("current").asLong());
        assertTrue(check.get("reason").asText().contains("TYPE mismatch"), check.toString());
        // Every timed check passes: only the cross-rank check fails.
        for (String m : new String[] {"tail", "exposedComm", "stepTime"}) {
            assertEquals("PASS", entry(g.get("checks"), m).get("status").asText(), m);
        }

        CliRun allowed = expect(0, "gate", "--baseline", base, bad, "--allow-mismatch");
        assertTrue(allowed.err().contains("allowed by --allow-mismatch"), allowed.err());
        assertTrue(allowed.out().contains("allowed (--allow-mismatch)"), allowed.out());

        JsonNode healthy = json(expect(0, "gate", "--baseline", base, base, "-f", "json").out());
        JsonNode ok = entry(healthy.get("checks"), "crossRankErrors");
        assertEquals("PASS", ok.get("status").asText());
        assertEquals(0, ok.get("current").asLong());
    }

    static List<List<String>> emptyPaths() {
        String seed = sample("seed-1ms.pt.trace.json").toString();
        String out = tmp.resolve("out.txt").toString();
        return List.of(
                List.of("gate", "--baseline", "", seed),
                List.of("gate", "--baseline", seed, ""),
                List.of("gate", "--baseline", seed, seed, "--markdown", ""),
                List.of("diff", "", seed),
                List.of("diff", seed, ""),
                List.of(""),
                List.of(seed, ""),
                List.of(seed, "-o", ""),
                List.of(seed, "--html", ""),
                List.of("summary", ""),
                List.of("whatif", ""),
                List.of("annotate", "", "-o", out));
    }

    /** Case 2: an empty argument (an unset variable) is bad usage, never the working directory. */
    @ParameterizedTest
    @MethodSource("emptyPaths")
    void anEmptyPathIsBadUsageEverywhere(List<String> args) {
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(2, r.exitCode(), () -> args + "\n" + r.out() + r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("an empty path"), r.err());
        assertFalse(r.out().contains("pass"), r.out());
    }

    /**
     * Inconclusive (§10): 1 ms → 4 ms tail with 3 steps a side is over every threshold, but 3 against 3
     * cannot be tested. It fails (exit 1, INCONCLUSIVE), never a silent pass; {@code --inconclusive pass}
     * passes it with a warning; within the thresholds it is a plain pass.
     */
    @Test
    void overThresholdsWithTooFewSamplesIsInconclusive() throws Exception {
        Path few1 = DiffGateFixtures.seedRun(tmp, "seed-1ms", 3, 2.0, 31);
        Path few4 = DiffGateFixtures.seedRun(tmp, "seed-4ms", 3, 2.0, 32);
        JsonNode g = json(expect(1, "gate", "--baseline", few1.toString(), few4.toString(), "-f", "json").out());
        assertEquals("INCONCLUSIVE", g.get("result").asText());
        assertEquals("fail", g.get("inconclusive").asText());
        JsonNode tail = entry(g.get("checks"), "tail");
        assertEquals("INCONCLUSIVE", tail.get("status").asText());
        assertEquals("TOO_FEW_SAMPLES", tail.get("verdict").asText());
        assertEquals(3, tail.get("samplesCurrent").asInt());
        CliRun text = expect(1, "gate", "--baseline", few1.toString(), few4.toString());
        assertTrue(text.out().startsWith("overlap-analyze gate: INCONCLUSIVE (3 of 3 checks"), text.out());

        CliRun passed = expect(0, "gate", "--baseline", few1.toString(), few4.toString(), "--inconclusive", "pass");
        assertTrue(passed.out().startsWith("overlap-analyze gate: pass (3 checks, 3 inconclusive passed"), passed.out());
        assertTrue(passed.err().contains("tail: over thresholds, but too few samples (3 vs 3"), passed.err());

        Path junit = tmp.resolve("inconclusive.xml");
        expect(1, "gate", "--baseline", few1.toString(), few4.toString(), "--junit", junit.toString());
        String xml = java.nio.file.Files.readString(junit);
        assertTrue(xml.contains("failures=\"3\"") && xml.contains("type=\"inconclusive\""), xml);

        // Within thresholds (the run against itself), too few samples are no reason to fail.
        expect(0, "gate", "--baseline", few1.toString(), few1.toString());
        CliRun bad = expect(2, "gate", "--baseline", few1.toString(), few4.toString(), "--inconclusive", "maybe");
        assertTrue(bad.err().contains("--inconclusive"), bad.err());
    }

    /** A summary of a 6-step seed run, edited by {@code edit}, written to {@code name}. */
    private static Path editedSummary(String name, Consumer<ObjectNode> edit) throws Exception {
        Path run = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 41);
        Path good = tmp.resolve("good-summary.json");
        if (!java.nio.file.Files.exists(good)) {
            expect(0, "summary", run.toString(), "-o", good.toString());
        }
        ObjectNode root = (ObjectNode) json(java.nio.file.Files.readString(good));
        edit.accept(root);
        Path out = tmp.resolve(name + ".json");
        java.nio.file.Files.writeString(out, root.toPrettyString());
        return out;
    }

    private static ObjectNode step0(ObjectNode root) {
        return (ObjectNode) root.get("ranks").get(0).get("steps").get(0);
    }

    /** Case 4: a baseline's values are checked for sense; an impossible one is exit 2 naming the field. */
    @Test
    void aBaselineWithImpossibleValuesIsRefusedNamingTheField() throws Exception {
        Path current = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 42);
        // The untouched summary is a baseline like any other.
        expect(0, "gate", "--baseline", editedSummary("untouched", r -> { }).toString(), current.toString());

        record Bad(String name, String field, Consumer<ObjectNode> edit) {
        }
        List<Bad> bad = List.of(
                new Bad("negative-step", "steps[0].stepTimeNs", r -> {
                    ObjectNode st = step0(r);
                    st.put("deviceEndNs", st.get("deviceStartNs").asLong() - 5);
                    st.put("stepTimeNs", -5);
                }),
                new Bad("step-not-window", "steps[0].stepTimeNs", r -> step0(r).put("stepTimeNs", 1)),
                new Bad("huge-step", "steps[0].stepTimeNs", r -> {
                    ObjectNode st = step0(r);
                    long huge = Long.MAX_VALUE - 10;
                    st.put("deviceStartNs", 0);
                    st.put("deviceEndNs", huge);
                    st.put("stepTimeNs", huge);
                }),
                new Bad("exposed-over-busy", "steps[0].exposedCommNs",
                        r -> step0(r).put("exposedCommNs", step0(r).get("commBusyNs").asLong() + 1)),
                new Bad("tail-over-step", "steps[0].tailNs",
                        r -> step0(r).put("tailNs", step0(r).get("stepTimeNs").asLong() + 1)),
                new Bad("negative-tail", "steps[0].tailNs", r -> step0(r).put("tailNs", -1)),
                new Bad("duplicate-rank", "ranks[1].rank", r -> {
                    ArrayNode ranks = (ArrayNode) r.get("ranks");
                    ranks.add(ranks.get(0).deepCopy());
                }),
                new Bad("no-kind", "\"kind\" is missing", r -> r.remove("kind")),
                new Bad("other-kind", "\"kind\" is \"Overlap-Analyze Summary\"",
                        r -> r.put("kind", "Overlap-Analyze Summary")),
                new Bad("result-kind", "\"kind\"", r -> r.put("kind", "overlap-analyze gate")),
                new Bad("schema-1.0", "schemaVersion", r -> r.put("schemaVersion", 1.0)));
        for (Bad b : bad) {
            Path f = editedSummary(b.name(), b.edit());
            CliRun r = expect(2, "gate", "--baseline", f.toString(), current.toString());
            assertEquals(1, r.errLines().size(), b.name() + ": " + r.err());
            assertTrue(r.err().contains(b.field()), b.name() + " names " + b.field() + ": " + r.err());
            assertTrue(r.err().contains(f.getFileName().toString()), b.name() + ": " + r.err());
        }
    }

    /** Two summaries of the same rank on one side would count its samples twice too. */
    @Test
    void theSameRankInTwoSummariesIsRefused() throws Exception {
        Path current = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 43);
        Path a = editedSummary("twin-a", r -> { });
        Path b = editedSummary("twin-b", r -> { });
        CliRun r = expect(2, "gate", "--baseline", current.toString(), a.toString(), b.toString());
        assertTrue(r.err().contains("rank 0 is in two summaries"), r.err());
    }

    /**
     * Case 5: a job directory where rank 1 is a link to its file (read like the others), rank 2 a
     * dangling link and rank 3 a FIFO: both are unreadable inputs, named, and the gate does not pass on
     * the ranks it could read (exit 2). Before, all three were left out in silence and the gate passed
     * on one rank; reading the FIFO would have blocked.
     */
    @Test
    void aDanglingLinkOrAFifoInAJobDirectoryIsAnUnreadableInput() throws Exception {
        Path job = java.nio.file.Files.createDirectories(tmp.resolve("job-with-holes"));
        Path healthy = sample("job-healthy-4rank");
        java.nio.file.Files.copy(healthy.resolve("rank-0.pt.trace.json"), job.resolve("rank-0.pt.trace.json"));
        java.nio.file.Files.createSymbolicLink(job.resolve("rank-1.pt.trace.json"),
                healthy.resolve("rank-1.pt.trace.json").toAbsolutePath());
        java.nio.file.Files.createSymbolicLink(job.resolve("rank-2.pt.trace.json"), tmp.resolve("gone.pt.trace.json"));

        CliRun r = expect(2, "gate", "--baseline", healthy.toString(), job.toString());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("rank-2.pt.trace.json: a symbolic link to a file that does not exist"), r.err());
        // With --allow-unreadable the readable ranks are checked, the link's target among them; 2 ranks against 4
        // are not comparable (§10) until that is allowed too.
        CliRun twoOfFour = expect(2, "gate", "--baseline", healthy.toString(), job.toString(), "--allow-unreadable");
        assertTrue(twoOfFour.err().contains("ranks read: 4 (0, 1, 2, 3) vs 2 (0, 1)"), twoOfFour.err());
        JsonNode g = json(expect(0, "gate", "--baseline", healthy.toString(), job.toString(), "--allow-unreadable",
                "--allow-incomparable", "-f", "json").out());
        assertEquals(2, g.get("current").get("ranks").asInt(), "rank 0 and the linked rank 1");

        Path fifo = job.resolve("rank-3.pt.trace.json");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is not available here");
        java.nio.file.Files.delete(job.resolve("rank-2.pt.trace.json"));
        CliRun f = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> CliRun.of("gate", "--baseline", healthy.toString(), job.toString()), "a FIFO must not be opened");
        assertEquals(2, f.exitCode(), f.err());
        assertTrue(f.err().contains("rank-3.pt.trace.json: not a regular file (a FIFO"), f.err());
    }

    private static CliRun withEnv(java.util.Map<String, String> env, String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.run(args, new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true), env);
        return new CliRun(code, out.toString(), err.toString());
    }

    /**
     * Case 7: GitHub collects every step's job summary in the file {@code $GITHUB_STEP_SUMMARY} names, to
     * be appended to; the README's {@code --markdown "$GITHUB_STEP_SUMMARY"} replaced what earlier steps
     * wrote. It appends there by default, anywhere with {@code --markdown-append}.
     */
    @Test
    void markdownAppendsToTheGithubStepSummary() throws Exception {
        String seed = sample("seed-1ms.pt.trace.json").toString();
        Path summary = tmp.resolve("step-summary.md");
        java.nio.file.Files.writeString(summary, "## Tests\n\nall green");
        java.util.Map<String, String> github = java.util.Map.of("GITHUB_STEP_SUMMARY", summary.toString());
        for (int i = 0; i < 2; i++) {
            CliRun r = withEnv(github, "gate", "--baseline", seed, seed, "--markdown", summary.toString());
            assertEquals(0, r.exitCode(), r.err());
        }
        String text = java.nio.file.Files.readString(summary);
        assertTrue(text.startsWith("## Tests\n\nall green\n\n### ✅ overlap-analyze gate"), text);
        assertEquals(2, text.split("overlap-analyze gate: pass", -1).length - 1, text);

        // Elsewhere the file is replaced, unless asked; and --no-markdown-append replaces the job summary too.
        Path other = tmp.resolve("other.md");
        java.nio.file.Files.writeString(other, "earlier\n");
        assertEquals(0, withEnv(github, "gate", "--baseline", seed, seed, "--markdown", other.toString()).exitCode());
        assertTrue(java.nio.file.Files.readString(other).startsWith("### ✅"));
        java.nio.file.Files.writeString(other, "earlier\n");
        assertEquals(0, withEnv(java.util.Map.of(), "gate", "--baseline", seed, seed, "--markdown", other.toString(),
                "--markdown-append").exitCode());
        assertTrue(java.nio.file.Files.readString(other).startsWith("earlier\n\n### ✅"));
        assertEquals(0, withEnv(github, "gate", "--baseline", seed, seed, "--markdown", summary.toString(),
                "--no-markdown-append").exitCode());
        assertTrue(java.nio.file.Files.readString(summary).startsWith("### ✅"));
    }

    /**
     * Case 3 (comparability, §10): one rank of a 2-rank job (seed-1ms.scenario.json: worldSize 2, rank 0)
     * against the 4 ranks of another job (job-healthy-4rank) are two jobs: the gate refuses them (exit 2,
     * naming the differences) unless --allow-incomparable; diff warns. The same job twice scores 1.
     */
    @Test
    void incomparableRunsAreRefusedByTheGateAndAWarningInDiff() throws Exception {
        String one = sample("seed-1ms.pt.trace.json").toString();
        String job = sample("job-healthy-4rank").toString();
        CliRun refused = expect(2, "gate", "--baseline", one, job);
        assertEquals(1, refused.errLines().size(), refused.err());
        assertTrue(refused.err().contains("world size: 2 vs 4"), refused.err());
        assertTrue(refused.err().contains("ranks read: 1 (0) vs 4 (0, 1, 2, 3)"), refused.err());
        assertTrue(refused.err().contains("--allow-incomparable"), refused.err());

        CliRun allowed = CliRun.of("gate", "--baseline", one, job, "--allow-incomparable", "-f", "json");
        assertTrue(allowed.exitCode() == 0 || allowed.exitCode() == 1, allowed.err());
        JsonNode c = json(allowed.out()).get("comparability");
        assertFalse(c.get("comparable").asBoolean());
        assertEquals(0.6, c.get("score").asDouble(), 1e-9,
                "world size and ranks differ; device model (both A100-SXM4-80GB), step names and collectives match");
        assertTrue(allowed.err().contains("are not comparable"), allowed.err());

        CliRun diff = expect(0, "diff", one, job, "-f", "json");
        assertFalse(json(diff.out()).get("comparability").get("comparable").asBoolean());
        assertTrue(diff.err().contains("A and B are not comparable"), diff.err());
        CliRun diffText = expect(0, "diff", one, job);
        assertTrue(diffText.out().contains("comparability 0.60 (NOT comparable): world size: 2 vs 4"), diffText.out());

        JsonNode same = json(expect(0, "diff", job, job, "-f", "json").out()).get("comparability");
        assertTrue(same.get("comparable").asBoolean());
        assertEquals(1.0, same.get("score").asDouble(), 0.0);
        assertEquals(0, same.get("differences").size());
    }
}
