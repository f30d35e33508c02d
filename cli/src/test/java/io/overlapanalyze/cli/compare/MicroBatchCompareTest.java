package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.annotate.AnnotationTraces;

import static io.overlapanalyze.cli.annotate.AnnotationTraces.MS;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.reportfile.SummaryFile;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * diff and gate compare each user annotation's exposed communication when both runs have the
 * annotation. Run A is {@link AnnotationTraces} with combine(F) [12, 14] ms, run B with combine(F)
 * [12, 16] ms; nothing computes after 10 ms, so by hand combine(F)'s exposed communication is 2 ms
 * in A and 4 ms in B (+2 ms, +100 %); dispatch(F) stays hidden under mlp(B) (0 → 0), mlp(B) has no
 * communication (0 → 0). The run-wide exposed comm and step time grow by the same 2 ms: the gate
 * tests lift those checks' absolute thresholds out of the way so that the per-annotation check is
 * the one that decides.
 */
class MicroBatchCompareTest {
    private static final String COMBINE = "annotationExposedComm[combine(F)]";
    private static final String DISPATCH = "annotationExposedComm[dispatch(F)]";
    private static final String MLP = "annotationExposedComm[mlp(B)]";

    @TempDir
    static Path dir;
    static Path a;
    static Path b;
    static Path none;

    @BeforeAll
    static void traces() throws Exception {
        a = AnnotationTraces.write(dir, "a.pt.trace.json", AnnotationTraces.Kind.GPU, 2);
        b = AnnotationTraces.write(dir, "b.pt.trace.json", AnnotationTraces.Kind.GPU, 4);
        none = AnnotationTraces.write(dir, "none.pt.trace.json", AnnotationTraces.Kind.NONE, 4);
    }

    private static String[] gate(String... more) {
        List<String> args = new ArrayList<>(List.of("gate", "-f", "json", "--min-step-time-delta", "100ms",
                "--min-exposed-comm-delta", "100ms"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void diffListsEachAnnotationBothRunsHave() throws Exception {
        JsonNode metrics = json(expect(0, "diff", "-f", "json", a.toString(), b.toString()).out()).get("metrics");
        JsonNode c = entry(metrics, COMBINE);
        assertEquals(2 * MS, c.get("medianA").asLong());
        assertEquals(4 * MS, c.get("medianB").asLong());
        assertEquals(2 * MS, c.get("absChange").asLong());
        assertEquals(1.0, c.get("relChange").asDouble(), 0.0);
        assertEquals(0, entry(metrics, DISPATCH).get("absChange").asLong());
        assertEquals(0, entry(metrics, MLP).get("medianB").asLong());
        // After the fixed metrics, by name.
        List<String> keys = new ArrayList<>();
        metrics.forEach(m -> keys.add(m.get("metric").asText()));
        assertEquals(List.of(COMBINE, DISPATCH, MLP), keys.subList(keys.size() - 3, keys.size()));

        String text = expect(0, "diff", a.toString(), b.toString()).out();
        assertTrue(text.contains("exposed comm [combine(F)] ms"), text);
    }

    @Test
    void aRunWithoutAnnotationsComparesNoAnnotation() throws Exception {
        JsonNode metrics = json(expect(0, "diff", "-f", "json", a.toString(), none.toString()).out()).get("metrics");
        metrics.forEach(m -> assertFalse(m.get("metric").asText().startsWith("annotationExposedComm"), m.toString()));
        // The lifted run-wide checks pass, and no annotation check is made: the gate passes.
        JsonNode checks = json(expect(0, gate("--check", "annotations", "--baseline", a.toString(), none.toString()))
                .out()).get("checks");
        checks.forEach(c -> assertFalse(c.get("metric").asText().startsWith("annotationExposedComm"), c.toString()));
    }

    /** Issue 28 case 3: per-annotation rows are checks only when asked for; by default the step-level ones. */
    @Test
    void gateChecksAnnotationsOnlyWhenAsked() throws Exception {
        JsonNode plain = json(expect(0, gate("--baseline", a.toString(), b.toString())).out());
        List<String> keys = new ArrayList<>();
        plain.get("checks").forEach(c -> keys.add(c.get("metric").asText()));
        assertEquals(List.of("tail", "exposedComm", "stepTime"), keys, "the step-level checks only");

        JsonNode named = json(expect(1, gate("--check", "annotation:combine(F)", "--baseline", a.toString(),
                b.toString())).out());
        List<String> namedKeys = new ArrayList<>();
        named.get("checks").forEach(c -> namedKeys.add(c.get("metric").asText()));
        assertEquals(List.of("tail", "exposedComm", "stepTime", COMBINE), namedKeys);

        CliRun typo = expect(2, gate("--check", "annotation:combine(X)", "--baseline", a.toString(), b.toString()));
        assertEquals(1, typo.errLines().size(), typo.err());
        assertTrue(typo.err().contains("combine(F)"), "names the annotations there are: " + typo.err());
        expect(2, gate("--check", "everything", "--baseline", a.toString(), b.toString()));
    }

    @Test
    void gateFailsOnAnAnnotationWhoseExposedCommunicationGrew() throws Exception {
        // The runs have fewer than 5 steps: a growth over the thresholds cannot be tested, so it is INCONCLUSIVE,
        // which fails the gate (metrics.md §10).
        JsonNode g = json(expect(1, gate("--check", "annotations", "--baseline", a.toString(), b.toString())).out());
        assertEquals("INCONCLUSIVE", g.get("result").asText());
        JsonNode c = entry(g.get("checks"), COMBINE);
        assertEquals("INCONCLUSIVE", c.get("status").asText(), c.toString());
        assertEquals(100_000, c.get("minDelta").asLong(), "default 0.1 ms");
        assertEquals(0.10, c.get("maxIncrease").asDouble(), 0.0, "default 10 %");
        assertEquals("PASS", entry(g.get("checks"), DISPATCH).get("status").asText());
        assertEquals("PASS", entry(g.get("checks"), "exposedComm").get("status").asText(), "lifted out of the way");

        // +2 ms is under a 3 ms floor: the gate passes.
        JsonNode pass = json(expect(0, gate("--check", "annotations", "--min-annotation-exposed-delta", "3ms",
                "--baseline", a.toString(),
                b.toString())).out());
        assertEquals("PASS", entry(pass.get("checks"), COMBINE).get("status").asText());
        // +100 % is under a 150 % bound: the gate passes too.
        expect(0, gate("--check", "annotations", "--max-annotation-exposed-increase", "150%", "--baseline",
                a.toString(), b.toString()));
    }

    @Test
    void aSavedSummaryCarriesTheAnnotationsTheGateNeeds() throws Exception {
        Path s = dir.resolve("baseline.json");
        expect(0, "summary", a.toString(), "-o", s.toString());
        JsonNode saved = json(Files.readString(s)).at("/ranks/0/steps/0/annotations");
        assertEquals(3, saved.size(), saved.toString());
        JsonNode g = json(expect(1, gate("--check", "annotations", "--baseline", s.toString(), b.toString())).out());
        assertEquals("INCONCLUSIVE", entry(g.get("checks"), COMBINE).get("status").asText());
        assertEquals(2 * MS, entry(g.get("checks"), COMBINE).get("baseline").asLong());
    }

    @Test
    void aSummaryWrittenBeforeAnnotationsExistedStillLoads() throws Exception {
        Path old = dir.resolve("old-baseline.json");
        try (InputStream in = MicroBatchCompareTest.class.getResourceAsStream("/compare/summary-0.1.0-seed-1ms-6steps.json")) {
            Files.copy(in, old, StandardCopyOption.REPLACE_EXISTING);
        }
        assertFalse(Files.readString(old).contains("annotations"), "the fixture must be the old layout");
        // It was written before summaries had "kind", which a baseline needs now: as a summary of then would have it.
        Files.writeString(old, Files.readString(old).replaceFirst("\\{", "{\"kind\":\"overlap-analyze summary\","));
        AnalysisReport r = SummaryFile.read(old);
        assertTrue(r.ranks().get(0).steps().stream().allMatch(st -> st.annotations().isEmpty()));
        // Tail undefined in B (no gradient reductions): skipped; exposed comm 1 -> 4 ms and step time 7 -> 16 ms are
        // under the lifted 100 ms floors; no annotation check, as the old summary has none: the gate passes.
        JsonNode checks = json(expect(0, gate("--check", "annotations", "--baseline", old.toString(), b.toString()))
                .out()).get("checks");
        checks.forEach(c -> assertFalse(c.get("metric").asText().startsWith("annotationExposedComm"), c.toString()));
    }
}
