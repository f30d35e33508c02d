package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;
import io.overlapanalyze.cli.analyse.SamplesTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Captures without step ranges (nsys-ai's own before/after fixtures) are compared as whole
 * profiles, with a warning saying so and how to get steps, and with the per-rank totals and the
 * work launched before the capture shown beside, so other tools' whole-capture figures can be
 * matched. Golden numbers: PROVENANCE.md's union-rule table for the "before" fixture (exposed comm
 * over every kernel of the window: 17,172.652 µs on pid 144, 8,229.100 µs on pid 145), whose sum is
 * nsys-ai's published 25.40 ms.
 */
class WholeProfileCompareTest {
    private static final String BEFORE = "nsys2026.2.1_torchrun2gpu_nccl_before.sqlite";

    @Test
    void theBeforeFixtureComparesAsAWholeProfileMatchingTheReference() throws IOException {
        Path before = SharedTraces.nsys(BEFORE);
        CliRun diff = CliRun.of("diff", "-f", "json", before.toString(), before.toString());
        assertEquals(0, diff.exitCode(), diff.err());
        assertTrue(diff.err().contains("neither A nor B has a complete step: comparing whole profiles"), diff.err());
        assertTrue(diff.err().contains("--step-pattern"), "says how to get steps: " + diff.err());
        JsonNode a = JsonRenderer.mapper().readTree(diff.out()).get("a");
        assertTrue(a.get("wholeProfile").asBoolean(), a.toString());
        long[] expected = {17_172_652L, 8_229_100L};
        long sum = 0;
        for (JsonNode p : a.get("profiles")) {
            long withBefore = p.get("exposedCommNs").asLong() + p.get("preCaptureCommNs").asLong();
            assertEquals(expected[p.get("rank").asInt()], withBefore, p.toString());
            sum += withBefore;
        }
        assertTrue(Math.abs(sum - 25_400_000L) <= 10_000L, "nsys-ai: 25.40 ms, ours " + sum + " ns");

        CliRun text = CliRun.of("diff", before.toString(), before.toString());
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("whole profile: exposed comm rank 0 17.073 ms, rank 1 8.107 ms, together "
                + "25.180 ms; communication launched before the capture 0.222 ms (with it 25.402 ms)"), text.out());
    }

    @Test
    void aGateComparesWholeProfilesToo() {
        Path before = SharedTraces.nsys(BEFORE);
        CliRun gate = CliRun.of("gate", "--baseline", before.toString(), before.toString());
        assertEquals(0, gate.exitCode(), gate.err() + gate.out());
        assertTrue(gate.err().contains("comparing whole profiles"), gate.err());
    }

    @Test
    void aWholeCaptureIsNotComparedWithSteps() {
        Path before = SharedTraces.nsys(BEFORE);
        Path steps = SamplesTest.samples().resolve("seed-4ms.pt.trace.json");
        CliRun diff = CliRun.of("diff", steps.toString(), before.toString());
        assertEquals(2, diff.exitCode(), diff.out());
        assertEquals(1, diff.errLines().size(), diff.err());
        assertTrue(diff.err().contains("a whole capture cannot be compared with steps"), diff.err());
    }
}
