package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The findings of a generated 8-rank job whose ground truth the generator sets: seed-1ms (a 1 ms
 * last-bucket transfer after the last gradient) on every rank, rank 5 0.8 ms late at every step,
 * and in one variant rank 3 skipping one collective of step 3. Rank 5 is the straggler, the others
 * wait 0.8 ms for it at their last bucket, and only the 1 ms transfer is the bucket's own: no rank is
 * blamed for its shifted sequence, and no rank is told that a smaller bucket saves the wait.
 */
class StragglerFindingsTest {
    private static final long WAIT = 800_000;
    private static final long TRANSFER = 1_000_000;

    @TempDir
    Path dir;

    private JsonNode job(boolean skip) throws IOException {
        Job job = Job.healthy("j", 8, BuiltinScenarios.get("seed-1ms").withSteps(4)).withSlowRank(5, WAIT);
        if (skip) {
            job = job.withPerturbation(new Job.Perturbation(Job.Perturbation.Kind.SKIP, 3, 3, 1, null));
        }
        JobWriter.write(job, dir, false);
        CliRun run = CliRun.of("-f", "json", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        return JsonRenderer.mapper().readTree(run.out());
    }

    private static JsonNode kind(JsonNode findings, String kind) {
        for (JsonNode f : findings) {
            if (f.get("kind").asText().equals(kind)) {
                return f;
            }
        }
        return null;
    }

    @Test
    void theLateRankIsTheStragglerAndTheOthersWaitForItNotForABiggerBucket() throws IOException {
        JsonNode report = job(false);
        JsonNode straggler = kind(report.get("findings"), "STRAGGLER");
        assertEquals("[5]", straggler.get("ranks").toString(), straggler.toString());
        assertEquals(WAIT, straggler.get("savingNs").asLong(), "the others lose the 0.8 ms they wait: " + straggler);
        for (JsonNode rank : report.get("ranks")) {
            int r = rank.get("rank").asInt();
            JsonNode findings = rank.get("findings");
            if (r == 5) {
                assertEquals(WAIT, kind(findings, "STRAGGLER").get("savingNs").asLong());
                assertNull(kind(findings, "WAITING"), "rank 5 waits for no one: " + findings);
                continue;
            }
            JsonNode waiting = kind(findings, "WAITING");
            assertEquals(WAIT, waiting.get("savingNs").asLong(), "rank " + r + ": " + findings);
            assertTrue(waiting.get("evidence").asText().contains("for rank 5"), waiting.toString());
            JsonNode tail = kind(findings, "TAIL");
            assertEquals(TRANSFER, tail.get("savingNs").asLong(), "only the bucket's own transfer is the tail's: "
                    + tail);
            assertNull(kind(findings, "STRAGGLER"), "only the late rank carries the straggler finding");
        }
    }

    @Test
    void aSkippedCollectiveIsAMismatchNeverALateRank() throws IOException {
        JsonNode report = job(true);
        JsonNode first = report.get("findings").get(0);
        assertEquals("COLLECTIVE_MISMATCH", first.get("kind").asText());
        assertEquals("[3]", first.get("ranks").toString());
        assertEquals("[5]", kind(report.get("findings"), "STRAGGLER").get("ranks").toString());
        List<JsonNode> all = new ArrayList<>();
        report.get("findings").forEach(all::add);
        report.get("ranks").forEach(r -> r.get("findings").forEach(all::add));
        for (JsonNode f : all) {
            if (!f.get("kind").asText().equals("COLLECTIVE_MISMATCH")) {
                assertFalse(f.get("evidence").asText().matches(".*\\brank 3\\b.*"), "rank 3 is not late: " + f);
                assertFalse(f.get("ranks").size() == 1 && f.get("ranks").get(0).asInt() == 3
                        && f.get("kind").asText().equals("STRAGGLER"), f.toString());
            }
        }
    }
}
