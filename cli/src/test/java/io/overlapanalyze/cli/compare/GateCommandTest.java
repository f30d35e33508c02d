package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.cli.compare.ThresholdValues;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 1 (gate part) and 2: exit codes on the seed runs, and outputs CI can read (JUnit XML
 * that parses with one case per metric, markdown that renders as a table, JSON).
 */
class GateCommandTest {
    @TempDir
    static Path tmp;
    static Path oneMs;
    static Path fourMs;
    static Path oneMsOtherJitter;
    static Path baseline;

    @BeforeAll
    static void runs() throws Exception {
        oneMs = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 21);
        fourMs = DiffGateFixtures.seedRun(tmp, "seed-4ms", 6, 2.0, 22);
        oneMsOtherJitter = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 23);
        baseline = tmp.resolve("baseline.json");
        expect(0, "summary", oneMs.toString(), "-o", baseline.toString());
    }

    @Test
    void regressionExitsOneSelfAndJitterExitZero() throws Exception {
        CliRun bad = expect(1, "gate", "--baseline", baseline.toString(), fourMs.toString());
        assertTrue(bad.out().startsWith("overlap-analyze gate: REGRESSION"), bad.out());
        expect(0, "gate", "--baseline", baseline.toString(), oneMs.toString());
        expect(0, "gate", "--baseline", oneMs.toString(), oneMs.toString());

        // Jitter only: a different seed moves every median a little, never past the thresholds.
        JsonNode jitter = json(expect(0, "gate", "--baseline", baseline.toString(), oneMsOtherJitter.toString(),
                "-f", "json").out());
        assertEquals("PASS", jitter.get("result").asText());
        assertTrue(entry(jitter.get("checks"), "stepTime").get("absChange").asLong() != 0,
                "the jitter run must differ, or this proves nothing");
    }

    @Test
    void thresholdsAreHonoured() throws Exception {
        // Tail +695 %: passes a 1000 % bound; exposed comm and step time still fail.
        JsonNode g = json(expect(1, "gate", "--baseline", baseline.toString(), fourMs.toString(),
                "--max-tail-increase", "1000%", "-f", "json").out());
        assertEquals("PASS", entry(g.get("checks"), "tail").get("status").asText());
        assertEquals(10.0, entry(g.get("checks"), "tail").get("maxIncrease").asDouble(), 1e-12);
        assertEquals("REGRESSION", entry(g.get("checks"), "exposedComm").get("status").asText());
        // All relative bounds high and the absolute ones above the ~7 ms growth: pass.
        expect(0, "gate", "--baseline", baseline.toString(), fourMs.toString(),
                "--max-tail-increase", "off", "--min-tail-delta", "7.5ms",
                "--max-exposed-comm-increase", "off", "--min-exposed-comm-delta", "7500us",
                "--max-step-time-increase", "off", "--min-step-time-delta", "7500000ns");
        CliRun bad = expect(2, "gate", "--baseline", baseline.toString(), fourMs.toString(), "--max-tail-increase", "10x");
        assertEquals(1, bad.errLines().size(), bad.err());
        assertTrue(bad.err().contains("--max-tail-increase"), bad.err());
        CliRun noUnit = expect(2, "gate", "--baseline", baseline.toString(), fourMs.toString(), "--min-tail-delta", "5");
        assertTrue(noUnit.err().contains("needs a unit"), noUnit.err());
    }

    @Test
    void thresholdValuesAreExact() {
        assertEquals(100_000L, ThresholdValues.duration("x", "0.1ms"));
        assertEquals(100_000L, ThresholdValues.duration("x", "100us"));
        assertEquals(100_000L, ThresholdValues.duration("x", "100µs"));
        assertEquals(1_500_000_000L, ThresholdValues.duration("x", "1.5s"));
        assertEquals(7L, ThresholdValues.duration("x", "7ns"));
        assertEquals(0L, ThresholdValues.duration("x", "0"));
        assertEquals(0.10, ThresholdValues.percent("x", "10%"), 0.0);
        assertEquals(0.025, ThresholdValues.percent("x", "2.5"), 0.0);
        assertNull(ThresholdValues.percent("x", "off"));
    }

    @Test
    void junitXmlParsesWithOneCasePerMetric() throws Exception {
        Path junit = tmp.resolve("gate.xml");
        expect(1, "gate", "--baseline", baseline.toString(), fourMs.toString(), "--max-tail-increase", "1000%",
                "--junit", junit.toString());
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        NodeList cases = doc.getElementsByTagName("testcase");
        assertEquals(3, cases.getLength());
        Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
        assertEquals("3", suite.getAttribute("tests"));
        assertEquals("2", suite.getAttribute("failures"));
        for (int i = 0; i < cases.getLength(); i++) {
            Element c = (Element) cases.item(i);
            NodeList failures = c.getElementsByTagName("failure");
            if (c.getAttribute("name").equals("tail")) {
                assertEquals(0, failures.getLength(), "tail passes its 1000 % bound");
            } else {
                assertEquals(1, failures.getLength(), c.getAttribute("name"));
                String message = ((Element) failures.item(0)).getAttribute("message");
                // The failure carries the numbers: baseline → current, change, threshold.
                assertTrue(message.matches(".*\\d+\\.\\d{3} → \\d+\\.\\d{3} ms \\(\\+\\d+\\.\\d{3} ms.*> \\+\\d+% and ≥ .*"),
                        message);
            }
        }
        assertEquals(List.of("tail", "exposedComm", "stepTime"),
                List.of(((Element) cases.item(0)).getAttribute("name"), ((Element) cases.item(1)).getAttribute("name"),
                        ((Element) cases.item(2)).getAttribute("name")));
    }

    @Test
    void markdownRendersAsATableAndJsonFileIsWritten() throws Exception {
        Path md = tmp.resolve("summary.md");
        Path js = tmp.resolve("gate.json");
        expect(1, "gate", "--baseline", baseline.toString(), fourMs.toString(), "--markdown", md.toString(),
                "--json", js.toString());
        List<TableBlock> tables = DiffCommandTest.tables(Files.readString(md));
        assertEquals(1, tables.size());
        assertEquals(List.of(8, 8, 8, 8), DiffCommandTest.cellsPerRow(tables.get(0)));
        JsonNode g = json(Files.readString(js));
        assertEquals("overlap-analyze gate", g.get("kind").asText());
        assertEquals("REGRESSION", g.get("result").asText());
        JsonNode tail = entry(g.get("checks"), "tail");
        for (String field : new String[] {"baseline", "current", "absChange", "relChange", "maxIncrease", "minDelta",
                "samplesBaseline", "samplesCurrent", "pValue", "verdict", "overThreshold", "status", "reason"}) {
            assertTrue(tail.has(field), field);
        }
        assertEquals(100_000L, tail.get("minDelta").asLong());
        assertEquals("SIGNIFICANT", tail.get("verdict").asText());
    }

    @Test
    void badInputIsExitTwo() {
        CliRun r = expect(2, "gate", "--baseline", tmp.resolve("nope.json").toString(), oneMs.toString());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("nope.json"), r.err());
        CliRun missing = expect(2, "gate", oneMs.toString());
        assertTrue(missing.err().contains("--baseline"), missing.err());
        assertFalse(missing.err().contains("Exception"), missing.err());
    }
}
