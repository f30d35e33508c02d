package io.overlapanalyze.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScenarioParseTest {

    private static Path samples() {
        String root = System.getProperty("overlap.projectRoot");
        Path p = root != null ? Path.of(root, "samples") : Path.of("..", "samples");
        return Files.isDirectory(p) ? p : Path.of("..", "samples");
    }

    @Test
    void sampleFilesAreTheBuiltinSeeds() {
        for (String name : List.of("seed-1ms", "seed-4ms")) {
            Scenario fromFile = Scenario.parse(samples().resolve(name + ".scenario.json"));
            assertEquals(BuiltinScenarios.get(name), fromFile, name);
        }
    }

    @Test
    void defaultsCommentsAndFractionalMicroseconds() {
        Scenario s = Scenario.parse("""
                {
                  // a comment, as in the documented example
                  "name": "tiny",
                  "forward": [{"name": "aten::linear", "us": 12.345, "kernels": 2}],
                  "backward": [{"us": 0.5}, {"us": 100, "bucket": {"bytes": 4096, "commUs": 7.001, "launchDelayUs": 0.002}}]
                }""");
        assertEquals("tiny", s.name());
        assertEquals("", s.description());
        assertEquals(0, s.rank());
        assertEquals(2, s.worldSize());
        assertEquals(1, s.steps());
        assertEquals(1, s.firstStep());
        assertEquals(12_345, s.forward().get(0).ns());
        assertEquals(2, s.forward().get(0).kernels());
        assertEquals(500, s.backward().get(0).ns());
        assertEquals(new Scenario.Bucket(4096, 7_001, 2), s.backward().get(1).bucket());
        assertEquals(0, s.optimizerNs());
        assertEquals(1_000_000, s.stepGapNs());
        assertEquals(1, s.bucketCount());
        assertFalse(s.syncEvents());
    }

    @Test
    void syncEventsFlag() {
        Scenario s = Scenario.parse("{\"name\": \"x\", \"syncEvents\": true, \"backward\": [{\"us\": 1}]}");
        assertTrue(s.syncEvents());
        assertTrue(s.withSteps(2).withRank(1, 4).withJitter(1, 2).syncEvents(), "kept by the with* copies");
        assertFalse(s.withSyncEvents(false).syncEvents());
    }

    @Test
    void exactNanosecondsFromLongDecimalText() {
        assertEquals(4_458_677_009_853_422L, Durations.usToNs("4458677009853.422"));
        assertEquals("4458677009853.422", Durations.formatUs(4_458_677_009_853_422L));
        assertEquals("0.007", Durations.formatUs(7));
        assertEquals("12.050", Durations.formatUs(12_050));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"name\": \"x\", \"backward\": [{\"us\": 1}] | not valid JSON at line 1, column 38: the document ends inside an object (the file is cut?)",
        "[1, 2] | must be a JSON object",
        "{\"backward\": [{\"us\": 1}]} | name: missing",
        "{\"name\": \"x\", \"backward\": [{\"us\": 1, \"kernal\": 2}]} | backward[0].kernal: unknown field",
        "{\"name\": \"x\", \"stepsz\": 2, \"backward\": [{\"us\": 1}]} | stepsz: unknown field",
        "{\"name\": \"x\", \"backward\": [{\"kernels\": 2}]} | backward[0].us: missing",
        "{\"name\": \"x\", \"backward\": [{\"us\": 1.0005}]} | backward[0].us: at most 3 decimals",
        "{\"name\": \"x\", \"backward\": [{\"us\": \"2000\"}]} | backward[0].us: must be a number",
        "{\"name\": \"x\", \"backward\": [{\"us\": 0}]} | backward[0]: us must be > 0",
        "{\"name\": \"x\", \"backward\": [{\"us\": 5, \"bucket\": {\"bytes\": 8, \"commUs\": -1}}]} | backward[0].bucket: commUs must be > 0",
        "{\"name\": \"x\", \"backward\": [{\"us\": 5, \"bucket\": {\"bytes\": 8}}]} | backward[0].bucket.commUs: missing",
        "{\"name\": \"x\", \"backward\": [{\"us\": 5, \"bucket\": {\"bytes\": 6, \"commUs\": 1}}]} | backward[0].bucket: bytes must be a positive multiple of 4",
        "{\"name\": \"x\", \"forward\": [{\"us\": 5, \"bucket\": {\"bytes\": 8, \"commUs\": 1}}]} | forward[0].bucket: only backward blocks",
        "{\"name\": \"x\", \"rank\": 2, \"worldSize\": 2, \"backward\": [{\"us\": 1}]} | rank must be in [0, worldSize=2)",
        "{\"name\": \"x\", \"steps\": 1.5, \"backward\": [{\"us\": 1}]} | steps: must be a whole number",
        "{\"name\": \"x\"} | needs at least one forward or backward block",
        "{\"name\": \"x\", \"name\": \"y\", \"backward\": [{\"us\": 1}]} | not valid JSON",
        "{\"name\": \"x\", \"backward\": {\"us\": 1}} | backward: must be an array",
        "{\"name\": \"x\", \"jitterPct\": 100, \"backward\": [{\"us\": 1}]} | jitterPct must be in [0, 100)",
        "{\"name\": \"x\", \"syncEvents\": 1, \"backward\": [{\"us\": 1}]} | syncEvents: must be true or false",
    })
    void errorsAreOneClearLine(String json, String expected) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> Scenario.parse(json, "bad.json"));
        String msg = e.getMessage();
        assertTrue(msg.startsWith("scenario bad.json: "), msg);
        assertTrue(msg.contains(expected.trim()), msg + " should contain: " + expected);
        assertFalse(msg.contains("\n") || msg.contains("\r"), "one line: " + msg);
        assertFalse(msg.contains("REDACTED"), "no parser noise: " + msg);
    }

    @Test
    void missingFileIsOneLine() {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> Scenario.parse(Path.of("no/such/file.scenario.json")));
        assertEquals("scenario no/such/file.scenario.json: no such file", e.getMessage());
    }

    @Test
    void unknownBuiltinNamesTheKnownOnes() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> BuiltinScenarios.get("seed-2ms"));
        assertTrue(e.getMessage().contains("seed-1ms, seed-4ms, seed-1ms-optimizer, seed-4ms-optimizer"),
                e.getMessage());
    }
}
