package io.overlapanalyze.cli.compare;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static io.overlapanalyze.cli.compare.DiffGateFixtures.entry;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.expect;
import static io.overlapanalyze.cli.compare.DiffGateFixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acceptance 4 on real traces of ../shared/traces: they hold 2–3 profiled steps, so every verdict
 * must be "too few samples" (never a false significance), and the gate decides on thresholds.
 * Expected medians come from the single-run analysis of the same files (the tail is 0 on
 * trace_filter rank 1, about 10 ms on rank 0: its two steps have 5.033 and 15.116 ms).
 */
class DiffRealTracesTest {
    private static final String RANK0 = "hta_trace_filter_sampled_rank0of128.json.gz";
    private static final String RANK1 = "hta_trace_filter_sampled_rank1of128.json.gz";
    private static final String NCCL = "hta_nccl_data_resnet_ddp_rank0of2_a100.json.gz";

    @Test
    void ncclDataAgainstItself() throws Exception {
        Path t = SharedTraces.kineto(NCCL);
        JsonNode d = json(expect(0, "diff", t.toString(), t.toString(), "-f", "json").out());
        for (JsonNode m : d.get("metrics")) {
            assertEquals("TOO_FEW_SAMPLES", m.get("verdict").asText(), m.get("metric").asText());
            assertEquals(0.0, m.get("absChange").asDouble(), 0.0, m.get("metric").asText());
        }
        assertEquals(3, d.get("a").get("steps").asInt());
        assertEquals("LAST_BUCKET", d.get("structure").get("a").get("tailKind").asText());
        assertTrue(d.get("structure").get("a").get("bucketsPerStep").asInt() > 1);
        expect(0, "gate", "--baseline", t.toString(), t.toString());
    }

    @Test
    void traceFilterRanks() throws Exception {
        Path r0 = SharedTraces.kineto(RANK0);
        Path r1 = SharedTraces.kineto(RANK1);
        JsonNode d = json(expect(0, "diff", r1.toString(), r0.toString(), "-f", "json").out());
        JsonNode tail = entry(d.get("metrics"), "tail");
        assertEquals(0L, tail.get("medianA").asLong());
        // (5.033 + 15.116) / 2 ms, from the two steps of rank 0.
        assertEquals(10.074, tail.get("medianB").asLong() / 1e6, 0.001);
        assertEquals("TOO_FEW_SAMPLES", tail.get("verdict").asText());
        assertEquals("NONE", d.get("structure").get("a").get("tailKind").asText());
        assertEquals("LAST_BUCKET", d.get("structure").get("b").get("tailKind").asText());

        // Rank 1 as baseline: rank 0's 10 ms tail is over 0.1 ms from 0, too few samples to test → INCONCLUSIVE,
        // which fails the gate (metrics.md §10).
        CliRun g = expect(1, "gate", "--baseline", r1.toString(), r0.toString());
        assertTrue(g.out().contains("tail ms") && g.out().contains("INCONCLUSIVE"), g.out());
        assertTrue(g.out().contains("too few samples (2 vs 2; 5 a side needed)"), g.out());
        // The other way round, the tail shrinks: an improvement never fails on it. (Rank 1's record_function
        // scopes around its all-to-alls are more exposed than rank 0's, which the per-annotation checks
        // report when asked; they are lifted here as the step time is, to look at the tail alone.)
        JsonNode back = json(expect(0, "gate", "--baseline", r0.toString(), r1.toString(), "-f", "json",
                "--max-step-time-increase", "off", "--min-step-time-delta", "10ms",
                "--check", "annotations", "--min-annotation-exposed-delta", "1s").out());
        assertEquals("PASS", entry(back.get("checks"), "tail").get("status").asText());
    }
}
