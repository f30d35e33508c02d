package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.render.JsonRenderer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 3: summaries stand in for traces, a summary written by one version is read by the
 * next, and a summary from an unknown future version is refused with one line and exit 2.
 */
class SummaryCommandTest {
    /**
     * Written by the previous version of the tool (commit 3295efa, "overlap-analyze 0.1.0-SNAPSHOT",
     * before diff existed): {@code overlap-analyze --format json} of
     * {@code synth} seed-1ms with steps 6, jitterPct 2, seed 21. It has no {@code kind} and no
     * {@code gradBuckets}: the layout this version must keep reading.
     */
    private static final String OLD_SUMMARY = "/compare/summary-0.1.0-seed-1ms-6steps.json";

    @TempDir
    static Path tmp;
    static Path oneMs;
    static Path fourMs;

    @BeforeAll
    static void runs() throws Exception {
        oneMs = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 21);
        fourMs = DiffGateFixtures.seedRun(tmp, "seed-4ms", 6, 2.0, 22);
    }

    @Test
    void summaryIsTheJsonReportWithAKind() throws Exception {
        Path s = tmp.resolve("run.json");
        expect(0, "summary", oneMs.toString(), "-o", s.toString());
        JsonNode n = json(Files.readString(s));
        assertEquals("overlap-analyze summary", n.get("kind").asText());
        assertEquals(1, n.get("schemaVersion").asInt());
        JsonNode step = n.get("ranks").get(0).get("steps").get(0);
        assertEquals(3, step.get("gradBuckets").size());
        assertEquals(26_214_400L, step.get("gradBuckets").get(0).get("bytes").asLong());
        assertTrue(step.get("gradBuckets").get(2).get("last").asBoolean());

        // The summary stands in for the traces: diffing it against them changes nothing.
        JsonNode d = json(expect(0, "diff", s.toString(), oneMs.toString(), "-f", "json").out());
        for (JsonNode m : d.get("metrics")) {
            assertEquals(0.0, m.get("absChange").asDouble(), 0.0, m.get("metric").asText());
            assertEquals(m.get("medianA"), m.get("medianB"), m.get("metric").asText());
        }
        assertTrue(d.get("a").get("origin").asText().startsWith("summary by overlap-analyze"));
        assertEquals(d.get("structure").get("a"), d.get("structure").get("b"));
    }

    /** Issue 28: a baseline must say what it is; the plain report is refused with how to write a summary. */
    @Test
    void plainJsonReportIsRefusedAsABaseline() throws Exception {
        Path s = tmp.resolve("report.json");
        expect(0, "--format", "json", oneMs.toString(), "-o", s.toString());
        assertFalse(json(Files.readString(s)).has("kind"));
        CliRun r = expect(2, "gate", "--baseline", s.toString(), oneMs.toString());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("\"kind\" is missing") && r.err().contains("overlap-analyze summary"), r.err());
    }

    @Test
    void aSummaryOfThePreviousVersionIsRead() throws Exception {
        Path old = tmp.resolve("old-baseline.json");
        try (InputStream in = SummaryCommandTest.class.getResourceAsStream(OLD_SUMMARY)) {
            Files.copy(in, old, StandardCopyOption.REPLACE_EXISTING);
        }
        String text = Files.readString(old);
        assertFalse(text.contains("gradBuckets"), "the fixture must be the old layout");
        assertFalse(json(text).has("kind"), "the fixture must be the old layout");
        // Without "kind" it is refused (issue 28: a baseline says what it is); with it, the old layout reads.
        expect(2, "gate", "--baseline", old.toString(), oneMs.toString());
        Files.writeString(old, text.replaceFirst("\\{", "{\n  \"kind\" : \"overlap-analyze summary\","));

        // Same scenario, same seed: the medians of the old summary equal the fresh analysis exactly.
        JsonNode d = json(expect(0, "diff", old.toString(), oneMs.toString(), "-f", "json").out());
        for (String m : new String[] {"stepTime", "tail", "exposedComm", "overlapRatio", "startDelay"}) {
            assertEquals(0.0, entry(d.get("metrics"), m).get("absChange").asDouble(), 0.0, m);
        }
        // Bucket sizes were not recorded by the old version: not available, never a false change.
        assertEquals("NOT_AVAILABLE", entry(d.get("metrics"), "meanGradBucketBytes").get("verdict").asText());
        assertEquals(0, d.get("structure").get("a").get("layout").size());

        expect(0, "gate", "--baseline", old.toString(), oneMs.toString());
        CliRun regression = expect(1, "gate", "--baseline", old.toString(), fourMs.toString());
        assertTrue(regression.out().contains("REGRESSION"), regression.out());
    }

    @Test
    void unknownFutureVersionIsOneLineExitTwo() throws Exception {
        Path s = tmp.resolve("future.json");
        expect(0, "summary", oneMs.toString(), "-o", s.toString());
        ObjectNode n = (ObjectNode) json(Files.readString(s));
        n.put("schemaVersion", 99);
        n.putArray("somethingNew");
        Files.writeString(s, JsonRenderer.mapper().writeValueAsString(n));
        for (String[] args : new String[][] {
                {"diff", s.toString(), oneMs.toString()},
                {"gate", "--baseline", s.toString(), oneMs.toString()}}) {
            CliRun r = expect(2, args);
            assertEquals(1, r.errLines().size(), r.err());
            assertTrue(r.err().contains(s.toString()) && r.err().contains("schemaVersion 99"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void additiveFieldsOfTheSameVersionAreIgnored() throws Exception {
        Path s = tmp.resolve("newer-same-version.json");
        expect(0, "summary", oneMs.toString(), "-o", s.toString());
        ObjectNode n = (ObjectNode) json(Files.readString(s));
        n.put("addedLater", "x");
        ((ObjectNode) n.get("ranks").get(0)).put("alsoAddedLater", 1);
        Files.writeString(s, JsonRenderer.mapper().writeValueAsString(n));
        expect(0, "gate", "--baseline", s.toString(), oneMs.toString());
    }

    @Test
    void damagedOrWrongDocumentsAreOneLine() throws Exception {
        Path truncated = tmp.resolve("truncated.json");
        expect(0, "summary", oneMs.toString(), "-o", truncated.toString());
        String full = Files.readString(truncated);
        Files.writeString(truncated, full.substring(0, full.length() / 2));
        CliRun r = expect(2, "diff", truncated.toString(), oneMs.toString());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains(truncated.toString()), r.err());

        Path diffJson = tmp.resolve("diff-result.json");
        expect(0, "diff", oneMs.toString(), oneMs.toString(), "-f", "json", "-o", diffJson.toString());
        CliRun wrong = expect(2, "gate", "--baseline", diffJson.toString(), oneMs.toString());
        assertTrue(wrong.err().contains("another result of this tool (a diff or gate)"), wrong.err());

        CliRun over = expect(2, "summary", oneMs.toString(), "-o", oneMs.toString());
        assertTrue(over.err().contains("refusing to overwrite"), over.err());
    }
}
