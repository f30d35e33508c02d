package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.compare.DiffGateFixtures;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28 case 3, the device half (metrics.md §10): the same generated job on an A100 and on a V100
 * (the traces differ only in {@code deviceProperties}' name) is two runs that cannot be compared.
 */
class DeviceModelComparabilityTest {
    /** The name the synth generator writes in {@code deviceProperties} (KinetoScenarioWriter). */
    private static final String A100 = "NVIDIA A100-SXM4-80GB";
    private static final String V100 = "Tesla V100-SXM2-16GB";

    @TempDir
    static Path tmp;
    static String onA100;
    static String onV100;

    @BeforeAll
    static void traces() throws Exception {
        Path a = DiffGateFixtures.seedRun(tmp, "seed-1ms", 8, 0.0, 5);
        String text;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(a))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(text.indexOf("\"" + A100 + "\""), text.lastIndexOf("\"" + A100 + "\""),
                "the model is named once, in deviceProperties");
        assertTrue(text.contains("\"deviceProperties\""));
        Path b = tmp.resolve("on-v100.pt.trace.json");
        Files.writeString(b, text.replace("\"" + A100 + "\"", "\"" + V100 + "\""));
        Path plain = tmp.resolve("on-a100.pt.trace.json");
        Files.writeString(plain, text);
        onA100 = plain.toString();
        onV100 = b.toString();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void eachRankReportsItsDeviceModel() throws Exception {
        JsonNode r = json(expect(0, onV100, "-f", "json").out());
        assertEquals(V100, r.get("ranks").get(0).get("deviceModel").asText());
    }

    @Test
    void theGateRefusesAnotherDeviceModelNamingBoth() throws Exception {
        CliRun refused = expect(2, "gate", "--baseline", onA100, onV100);
        assertTrue(refused.err().contains("device model: " + A100 + " vs " + V100), refused.err());
        assertTrue(refused.err().contains("--allow-incomparable"), refused.err());

        CliRun allowed = expect(0, "gate", "--baseline", onA100, onV100, "--allow-incomparable", "-f", "json");
        JsonNode c = json(allowed.out()).get("comparability");
        assertFalse(c.get("comparable").asBoolean());
    }

    @Test
    void aSavedSummaryKeepsTheModelForALaterGate() throws Exception {
        Path summary = tmp.resolve("v100.summary.json");
        expect(0, "summary", onV100, "-o", summary.toString());
        assertEquals(V100, json(Files.readString(summary)).get("ranks").get(0).get("deviceModel").asText());
        CliRun refused = expect(2, "gate", "--baseline", summary.toString(), onA100);
        assertTrue(refused.err().contains("device model: " + V100 + " vs " + A100), refused.err());
        expect(0, "gate", "--baseline", summary.toString(), onV100);
    }

    @Test
    void diffNamesTheDifferenceInItsComparability() throws Exception {
        JsonNode c = json(expect(0, "diff", onA100, onV100, "-f", "json").out()).get("comparability");
        assertFalse(c.get("comparable").asBoolean());
        assertEquals(List.of("device model: " + A100 + " vs " + V100), strings(c.get("differences")));
        assertTrue(strings(c.get("compared")).contains("deviceModel"));
        assertFalse(strings(c.get("notCompared")).contains("deviceModel"));
        // world size, device model, ranks, step names, collectives: all but the device match.
        assertEquals(4.0 / 5.0, c.get("score").asDouble(), 1e-9);

        JsonNode same = json(expect(0, "diff", onA100, onA100, "-f", "json").out()).get("comparability");
        assertTrue(same.get("comparable").asBoolean());
        assertEquals(1.0, same.get("score").asDouble(), 0.0);
    }

    /** The model is the trace's text: a name with a terminal escape is printed escaped, never raw. */
    @Test
    void aHostileModelNameIsEscapedWhereTheDifferenceIsPrinted() throws Exception {
        Path evil = tmp.resolve("evil.pt.trace.json");
        Files.writeString(evil, Files.readString(Path.of(onA100)).replace("\"" + A100 + "\"", "\"GPU\\u001b[2J\""));
        CliRun refused = expect(2, "gate", "--baseline", onA100, evil.toString());
        assertTrue(refused.err().contains("device model: " + A100 + " vs GPU"), refused.err());
        assertFalse(refused.err().contains("\u001b"), refused.err());
        for (String format : List.of("text", "markdown")) {
            CliRun diff = expect(0, "diff", onA100, evil.toString(), "-f", format);
            assertTrue(diff.out().contains("device model"), diff.out());
            assertFalse(diff.out().contains("\u001b") || diff.err().contains("\u001b"), format);
        }
    }

    @Test
    void aSideThatDoesNotKnowItsDeviceIsNotCompared() throws Exception {
        Path none = tmp.resolve("no-device.pt.trace.json");
        String text = Files.readString(Path.of(onA100));
        int at = text.indexOf("\"deviceProperties\"");
        int end = text.indexOf(']', at);
        Files.writeString(none, text.substring(0, at) + "\"deviceProperties\":[]" + text.substring(end + 1));
        JsonNode c = json(expect(0, "diff", onA100, none.toString(), "-f", "json").out()).get("comparability");
        assertTrue(c.get("comparable").asBoolean(), c.toString());
        assertTrue(strings(c.get("notCompared")).contains("deviceModel"));
    }
}
