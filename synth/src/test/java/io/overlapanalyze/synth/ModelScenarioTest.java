package io.overlapanalyze.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelScenarioTest {
    private static final String MODEL = """
            {
              "name": "m", "worldSize": 4,
              "forwardUs": 100,
              "layers": [
                {"us": 10, "gradBytes": 400},
                {"repeat": 2, "layers": [{"us": 20, "gradBytes": 0}, {"us": 30.5, "gradBytes": 800}]},
                {"us": 5, "gradBytes": 4000}
              ],
              "bucketCapBytes": 1000,
              "alphaUs": 2, "betaGBps": 0.5
            }""";

    @Test
    void parsesLayersWithRepeats() {
        ModelScenario m = ModelScenario.parse(MODEL, "<test>");
        assertEquals(List.of(new ModelScenario.Layer(10_000, 1, 400), new ModelScenario.Layer(20_000, 1, 0),
                new ModelScenario.Layer(30_500, 1, 800), new ModelScenario.Layer(20_000, 1, 0),
                new ModelScenario.Layer(30_500, 1, 800), new ModelScenario.Layer(5_000, 1, 4000)), m.layers());
        assertEquals(100_000, m.forwardNs());
        assertEquals(2_000, m.alphaNs());
        assertEquals(0.5, m.betaBytesPerNs());
        assertEquals(6000, m.totalGradBytes());
    }

    @Test
    void bucketsFollowDdpsAtLeastTheCapRule() {
        ModelScenario m = ModelScenario.parse(MODEL, "<test>");
        // 400 + 800 = 1200 >= 1000 closes at layer 2; 800 + 4000 closes at layer 5 (a big layer joins the open bucket).
        assertEquals(List.of(new ModelScenario.BucketPlan(0, 2, 1200), new ModelScenario.BucketPlan(3, 5, 4800)),
                m.buckets());
        assertEquals(List.of(new ModelScenario.BucketPlan(0, 0, 400), new ModelScenario.BucketPlan(1, 2, 800),
                new ModelScenario.BucketPlan(3, 4, 800), new ModelScenario.BucketPlan(5, 5, 4000)),
                m.withBucketCap(1, "tiny").buckets());
        assertEquals(List.of(new ModelScenario.BucketPlan(0, 5, 6000)), m.withBucketCap(1 << 20, "big").buckets());
    }

    @Test
    void expandsToAPlainScenarioWithBucketsAfterTheirReadyLayer() {
        ModelScenario m = ModelScenario.parse(MODEL, "<test>");
        Scenario s = m.toScenario();
        assertEquals(1, s.forward().size());
        assertEquals(100_000, s.forward().get(0).ns());
        assertEquals(6, s.backward().size());
        assertNull(s.backward().get(0).bucket());
        // alpha 2 us + 1200 B / 0.5 B/ns = 2000 + 2400 ns.
        assertEquals(new Scenario.Bucket(1200, 4_400, 0), s.backward().get(2).bucket());
        assertEquals(new Scenario.Bucket(4800, 2_000 + 9_600, 0), s.backward().get(5).bucket());
        assertEquals(2, s.bucketCount());
        assertEquals(4, s.worldSize());
    }

    @Test
    void theScenarioParserAcceptsModelFilesForSynth() {
        assertEquals(ModelScenario.parse(MODEL, "<test>").toScenario(), Scenario.parse(MODEL));
    }

    @Test
    void bucketCapInMiBAsDdp() {
        ModelScenario m = ModelScenario.parse(MODEL.replace("\"bucketCapBytes\": 1000", "\"bucketCapMB\": 2.5"),
                "<test>");
        assertEquals(2_621_440, m.bucketCapBytes());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"bucketCapBytes\": 1000,|                      | give exactly one of bucketCapMB",
        "\"alphaUs\": 2,|                                | alphaUs: missing",
        "{\"us\": 10, \"gradBytes\": 400}| {\"us\": 10}    | layers[0].gradBytes: missing",
        "\"betaGBps\": 0.5| \"betaGBps\": \"x\"          | betaGBps: must be a number",
        "\"forwardUs\": 100| \"forwardUs\": 100, \"backward\": [] | backward: unknown field"})
    void errorsNameTheFileAndField(String from, String to, String message) {
        String broken = MODEL.replace(from, to == null ? "" : to);
        ScenarioException e = assertThrows(ScenarioException.class, () -> ModelScenario.parse(broken, "f.json"));
        assertTrue(e.getMessage().startsWith("scenario f.json: "), e.getMessage());
        assertTrue(e.getMessage().contains(message.trim()), e.getMessage());
    }

    @Test
    void oddGradientBytesAreRejected() {
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> ModelScenario.parse(MODEL.replace("\"gradBytes\": 400", "\"gradBytes\": 6"), "f.json"));
        assertTrue(e.getMessage().contains("layers[0]: gradBytes must be a multiple of 4"), e.getMessage());
    }
}
