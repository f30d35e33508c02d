package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.AscendCommunicationWriter;
import io.overlapanalyze.synth.AscendScenarioWriter;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Scenario;
import io.overlapanalyze.synth.SyntheticTimeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * metrics.md §12 rule 1 and §6 WAIT on a generated Ascend capture of 2 of the 4 ranks of a job
 * (issue 26, "Waiting called bandwidth on Ascend"). Each rank is seed-4ms (§7: reductions
 * [2,6] [6,10] [10,14] ms after the step's device origin, backward compute [0,6]) over two steps,
 * with communication.json saying bucket b transferred for b × 0.5 ms (at the op's end, waiting
 * before) and communication_matrix.json linking 4 ranks. By hand, per step:
 * <pre>
 * waiting stretches: g1 [2, 5.5]  g2 [6, 9]  g3 [10, 12.5]     transfers: [5.5, 6] [9, 10] [12.5, 14]
 * exposed comm C − K = [6, 14] = 8 ms
 *   waiting  = [6, 9] ∪ [10, 12.5] = 5.5 ms,   transfer = [9, 10] ∪ [12.5, 14] = 2.5 ms
 * tail chain g3 QUEUE ← g2 QUEUE ← g1 DATA: 12 ms of communication, 3.5 + 3 + 2.5 = 9 ms waiting
 *   → most of it waiting: WAIT, not COMM_BOUND
 * </pre>
 * The op names repeat in every step (hcom_allReduce__586_0_1 …), so the second step also proves that
 * the entries are paired with the collectives of their step.
 */
class AscendProfilerSplitScenarioTest {
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;

    @TempDir
    Path tmp;

    @Test
    void twoOfFourRanksWaitedAndTheTailSaysSo() throws Exception {
        Path job = tmp.resolve("job");
        AscendCommunicationWriter.ProfilerSplit split =
                new AscendCommunicationWriter.ProfilerSplit(r -> r.bucket() * 500 * US, 4);
        for (int rank = 0; rank < 2; rank++) {
            Scenario s = BuiltinScenarios.get("seed-4ms").withSteps(2).withRank(rank, 4);
            SyntheticTimeline t = AscendScenarioWriter.write(s, job.resolve("rank" + rank + "_ascend_pt"), split);
            for (SyntheticTimeline.PlannedStep step : t.steps()) {
                // The §7 layout the expectations above rest on.
                assertEquals(List.of(new SyntheticTimeline.Interval(2 * MS, 6 * MS),
                        new SyntheticTimeline.Interval(6 * MS, 10 * MS),
                        new SyntheticTimeline.Interval(10 * MS, 14 * MS)), step.commRelative());
            }
        }
        CliRun run = CliRun.of("-f", "json", job.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        JsonNode ranks = JsonRenderer.mapper().readTree(run.out()).path("ranks");
        assertEquals(2, ranks.size(), run.out());
        for (JsonNode rank : ranks) {
            JsonNode steps = rank.path("steps");
            assertEquals(2, steps.size());
            for (JsonNode step : steps) {
                assertEquals(8 * MS, step.path("exposedCommNs").asLong());
                JsonNode cs = step.path("commSplit");
                assertEquals(5_500 * US, cs.path("waitNs").asLong(), cs.toString());
                assertEquals(2_500 * US, cs.path("transferNs").asLong(), cs.toString());
                assertEquals("profiler", cs.path("source").asText(), cs.toString());
                assertEquals("WAIT", step.path("attribution").path("kind").asText(), step.toString());
            }
            String notes = rank.path("notes").toString();
            assertTrue(notes.contains("this rank's collectives ran in a group of 4 ranks (as the capture says):"
                    + " unless all 4 are in the input, the waiting in the transfer / waiting split may be for ranks"
                    + " outside the input"), notes);
        }
        CliRun text = CliRun.of(job.toString());
        assertEquals(ExitCodes.OK, text.exitCode(), text.err());
        assertTrue(text.out().contains("tail: WAIT in 2 of 2 steps"), text.out());
        // Added over the two steps: 2 × 8, 2 × 5.5, 2 × 2.5 ms.
        assertTrue(text.out().contains("transfer / waiting: exposed comm 16.000 ms: waiting 11.000 ms, transfer"
                + " 5.000 ms (profiler; 2 of 2 steps)"), text.out());
        assertTrue(text.out().contains("(its group has ranks that may be outside the input: see the notes)"),
                text.out());
        assertTrue(!text.out().contains("COMM_BOUND"), text.out());

        CliRun markdown = CliRun.of("-f", "markdown", job.toString());
        assertEquals(ExitCodes.OK, markdown.exitCode(), markdown.err());
        assertTrue(markdown.out().contains("**Transfer / waiting**: exposed comm 16.000 ms: waiting 11.000 ms, transfer"
                + " 5.000 ms (profiler; 2 of 2 steps)."), markdown.out());
        Path html = tmp.resolve("report.html");
        CliRun withHtml = CliRun.of(job.toString(), "--html", html.toString(), "-f", "json");
        assertEquals(ExitCodes.OK, withHtml.exitCode(), withHtml.err());
        String page = java.nio.file.Files.readString(html);
        assertTrue(page.contains("<th>of it waiting ms</th>"), "the step table's column");
        assertTrue(page.contains("<td>5.500 (profiler)</td>"), "a step's waiting, from the profiler");
    }

    /**
     * Without the side files the same capture keeps its §7 answer, COMM_BOUND: its six all-reduces
     * (3 buckets × 2 steps, one type, group and size) all take 4 ms, so rule 3 estimates each one's
     * transfer as 4 ms and its waiting as 0.
     */
    @Test
    void withoutTheProfilerSplitTheSeedStaysCommBoundWithAnEstimate() throws Exception {
        Path dir = tmp.resolve("rank0_ascend_pt");
        AscendScenarioWriter.write(BuiltinScenarios.get("seed-4ms").withSteps(2), dir);
        CliRun run = CliRun.of("-f", "json", dir.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        JsonNode steps = JsonRenderer.mapper().readTree(run.out()).path("ranks").get(0).path("steps");
        for (JsonNode step : steps) {
            assertEquals("COMM_BOUND", step.path("attribution").path("kind").asText());
            JsonNode cs = step.path("commSplit");
            assertEquals(0, cs.path("waitNs").asLong(-1), cs.toString());
            assertEquals(8 * MS, cs.path("transferNs").asLong(), cs.toString());
            assertEquals("estimated", cs.path("source").asText(), cs.toString());
        }
    }
}
