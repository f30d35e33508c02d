package io.overlapanalyze.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.overlapanalyze.cli.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.DiffGateFixtures.json;
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
}
