package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;

import com.fasterxml.jackson.databind.JsonNode;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.CustomBlock;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.MS;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 1 (diff part) through the CLI: the seed's 1 ms vs 4 ms buckets (metrics.md §7) as
 * runs of 6 steps with 2 % jitter: the tail goes 1 → 8 ms, significantly, and B is COMM_BOUND.
 */
class DiffCommandTest {
    @TempDir
    static Path tmp;
    static Path oneMs;
    static Path fourMs;

    @BeforeAll
    static void runs() throws Exception {
        oneMs = DiffGateFixtures.seedRun(tmp, "seed-1ms", 6, 2.0, 21);
        fourMs = DiffGateFixtures.seedRun(tmp, "seed-4ms", 6, 2.0, 22);
    }

    private static void assertWithin(long expected, long actual, double fraction, String what) {
        assertTrue(Math.abs(actual - expected) <= expected * fraction,
                what + ": expected " + expected + " ± " + (fraction * 100) + " %, got " + actual);
    }

    @Test
    void jsonShowsTheTailGrowingOneToEightMsSignificantly() throws Exception {
        JsonNode d = json(expect(0, "diff", oneMs.toString(), fourMs.toString(), "--format", "json").out());
        assertEquals("overlap-analyze diff", d.get("kind").asText());
        assertEquals(1, d.get("schemaVersion").asInt());
        List<String> metrics = new ArrayList<>();
        d.get("metrics").forEach(m -> metrics.add(m.get("metric").asText()));
        assertEquals(List.of("stepTime", "tail", "exposedComm", "exposedGradComm", "overlapRatio", "commBusy",
                "computeBusy", "startDelay", "gradCollectives", "meanGradBucketBytes"), metrics);

        JsonNode tail = entry(d.get("metrics"), "tail");
        assertWithin(MS, tail.get("medianA").asLong(), 0.02, "tail A");
        assertWithin(8 * MS, tail.get("medianB").asLong(), 0.04, "tail B");
        assertEquals(tail.get("medianB").asLong() - tail.get("medianA").asLong(), tail.get("absChange").asLong());
        assertEquals("SIGNIFICANT", tail.get("verdict").asText());
        assertTrue(tail.get("pValue").asDouble() < 0.05);
        assertEquals(6, tail.get("samplesA").asInt());

        JsonNode structure = d.get("structure");
        assertEquals("LAST_BUCKET", structure.get("a").get("tailKind").asText());
        assertEquals("COMM_BOUND", structure.get("b").get("tailKind").asText());
        assertEquals(6, structure.get("b").get("tailKinds").get("COMM_BOUND").asInt());
        assertTrue(structure.get("attributionChanged").asBoolean());
        assertEquals(3, structure.get("b").get("bucketsPerStep").asInt());
        assertEquals(3, structure.get("b").get("lastBucketIndex").asInt());
        assertWithin(4 * MS, structure.get("b").get("lastReduceNs").asLong(), 0.02, "last reduce B");
    }

    @Test
    void textNamesTheChangeAndTheCause() {
        String out = expect(0, "diff", oneMs.toString(), fourMs.toString()).out();
        assertTrue(out.lines().anyMatch(l -> l.startsWith("tail ms") && l.contains("significant (p=")), out);
        assertTrue(out.contains("tail cause LAST_BUCKET → COMM_BOUND"), out);
        assertTrue(out.contains("QUEUE → QUEUE → DATA"), out);
    }

    @Test
    void markdownIsTwoTables() {
        String md = expect(0, "diff", oneMs.toString(), fourMs.toString(), "-f", "markdown").out();
        List<TableBlock> tables = tables(md);
        assertEquals(2, tables.size(), md);
        // metrics table: header + 10 metrics; structure table: header + 6 rows.
        assertEquals(11, rows(tables.get(0)), md);
        assertEquals(7, rows(tables.get(1)), md);
    }

    @Test
    void tooFewSamplesGiveNoVerdict() throws Exception {
        Path a = DiffGateFixtures.seedRun(tmp, "seed-1ms", 3, 2.0, 31);
        Path b = DiffGateFixtures.seedRun(tmp, "seed-4ms", 3, 2.0, 32);
        JsonNode d = json(expect(0, "diff", a.toString(), b.toString(), "-f", "json").out());
        for (JsonNode m : d.get("metrics")) {
            assertEquals("TOO_FEW_SAMPLES", m.get("verdict").asText(), m.get("metric").asText());
            assertTrue(m.get("pValue").isNull());
        }
        // The medians are still there: the tail grew by about 7 ms.
        assertWithin(7 * MS, entry(d.get("metrics"), "tail").get("absChange").asLong(), 0.06, "tail change");
        String text = expect(0, "diff", a.toString(), b.toString()).out();
        assertTrue(text.contains("too few samples (3 vs 3)"), text);
        assertTrue(!text.contains("significant ("), text);
    }

    @Test
    void aDirectoryIsOneRun() throws Exception {
        Path dir = tmp.resolve("dir-run");
        java.nio.file.Files.createDirectories(dir);
        DiffGateFixtures.seedRun(dir, "seed-4ms", 6, 2.0, 22);
        JsonNode d = json(expect(0, "diff", fourMs.toString(), dir.toString(), "-f", "json").out());
        assertEquals(0L, entry(d.get("metrics"), "tail").get("absChange").asLong());
        assertEquals(6, d.get("b").get("steps").asInt());
    }

    @Test
    void badSideIsOneLineExitTwo() {
        CliRun r = expect(2, "diff", oneMs.toString(), tmp.resolve("missing.json").toString());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("missing.json"), r.err());
        CliRun alpha = expect(2, "diff", oneMs.toString(), fourMs.toString(), "--alpha", "2");
        assertTrue(alpha.err().contains("--alpha"), alpha.err());
    }

    /**
     * Acceptance 4 on the shipped samples: the same model with 25 MiB vs 100 MiB buckets
     * (samples/bucket-*.scenario.json). Expected from the scenarios: 4 buckets of 26 214 400 B vs
     * 1 of 104 857 600 B; the tail is the last bucket's own reduction (LAST_BUCKET) on both sides,
     * 1.05 ms vs 4.05 ms before jitter (3 %).
     */
    @Test
    void bucketSizeSamples() throws Exception {
        String root = System.getProperty("overlap.projectRoot", "..");
        Path small = Path.of(root, "samples", "bucket-small.pt.trace.json.gz");
        Path large = Path.of(root, "samples", "bucket-large.pt.trace.json.gz");
        Path baseline = Path.of(root, "samples", "bucket-small.summary.json");
        JsonNode d = json(expect(0, "diff", small.toString(), large.toString(), "-f", "json").out());
        JsonNode a = d.get("structure").get("a");
        JsonNode b = d.get("structure").get("b");
        assertEquals(List.of(26_214_400L, 26_214_400L, 26_214_400L, 26_214_400L), longs(a.get("layout")));
        assertEquals(List.of(104_857_600L), longs(b.get("layout")));
        assertEquals("LAST_BUCKET", a.get("tailKind").asText());
        assertEquals("LAST_BUCKET", b.get("tailKind").asText());
        assertWithin(1_050_000L, a.get("lastReduceNs").asLong(), 0.03, "last reduce small");
        assertWithin(4_050_000L, b.get("lastReduceNs").asLong(), 0.03, "last reduce large");
        JsonNode tail = entry(d.get("metrics"), "tail");
        assertWithin(1_050_000L, tail.get("medianA").asLong(), 0.03, "tail small");
        assertWithin(4_050_000L, tail.get("medianB").asLong(), 0.03, "tail large");
        assertEquals("SIGNIFICANT", tail.get("verdict").asText());
        assertEquals(-3L, entry(d.get("metrics"), "gradCollectives").get("absChange").asLong());
        // The committed baseline summary gates both: the large buckets regress the tail, the small run passes.
        expect(1, "gate", "--baseline", baseline.toString(), large.toString());
        expect(0, "gate", "--baseline", baseline.toString(), small.toString());
    }

    /** The committed bucket-size samples are exactly what the generator writes from their scenarios. */
    @Test
    void bucketSamplesAreWhatTheGeneratorWrites() throws Exception {
        Path samples = Path.of(System.getProperty("overlap.projectRoot", "..")).resolve("samples");
        for (String name : new String[] {"bucket-small", "bucket-large"}) {
            // Same file name: the trace records it as its traceName.
            Path regenerated = tmp.resolve("regenerated").resolve(name + ".pt.trace.json.gz");
            expect(0, "synth", samples.resolve(name + ".scenario.json").toString(), "-o", regenerated.toString());
            assertArrayEquals(gunzip(samples.resolve(name + ".pt.trace.json.gz")), gunzip(regenerated),
                    "samples/" + name + ".pt.trace.json.gz is stale: regenerate it (samples/README.md)");
        }
    }

    /** Compared decompressed: gzip framing may differ between JDKs, the trace text must not. */
    private static byte[] gunzip(Path p) throws java.io.IOException {
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(p))) {
            return in.readAllBytes();
        }
    }

    private static List<Long> longs(JsonNode array) {
        List<Long> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asLong()));
        return out;
    }

    static List<TableBlock> tables(String markdown) {
        Parser parser = Parser.builder().extensions(List.of(TablesExtension.create())).build();
        Node doc = parser.parse(markdown);
        List<TableBlock> found = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(CustomBlock block) {
                if (block instanceof TableBlock t) {
                    found.add(t);
                }
                visitChildren(block);
            }
        });
        return found;
    }

    /** Rows of a parsed table, header included. */
    static int rows(TableBlock t) {
        int n = 0;
        for (Node section = t.getFirstChild(); section != null; section = section.getNext()) {
            for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                n++;
            }
        }
        return n;
    }

    /** Cells of each row of a parsed table. */
    static List<Integer> cellsPerRow(TableBlock t) {
        List<Integer> cells = new ArrayList<>();
        for (Node section = t.getFirstChild(); section != null; section = section.getNext()) {
            for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                int c = 0;
                for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
                    c++;
                }
                cells.add(c);
            }
        }
        return cells;
    }
}
