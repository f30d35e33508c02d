package io.overlapanalyze.spark;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Spark job in local mode gives the CLI's JSON report, byte for byte: per-rank reports from
 * the tasks, the cross-rank section from the digests on the driver.
 */
class SparkLocalModeTest {
    @TempDir
    Path tmp;

    private String sparkJson(String... args) throws IOException {
        Path out = tmp.resolve("spark-" + System.nanoTime() + ".json");
        String[] all = new String[args.length + 4];
        all[0] = "-f";
        all[1] = "json";
        all[2] = "-o";
        all[3] = out.toString();
        System.arraycopy(args, 0, all, 4, args.length);
        SparkRuns.Run run = SparkRuns.spark(all);
        assertEquals(0, run.code(), run.err());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    @Test
    void theSamplesGiveTheCliReport() throws IOException {
        for (String sample : new String[] {"job-healthy-4rank", "job-order-mismatch"}) {
            Path dir = SparkRuns.samples().resolve(sample);
            String cli = SparkRuns.cliJson(dir);
            assertEquals(cli, sparkJson(dir.toString()), sample);
            JsonNode crossRank = JsonRenderer.mapper().readTree(cli).get("crossRank");
            assertFalse(crossRank.isNull(), sample + ": a cross-rank section to compare");
        }
        Path single = SparkRuns.samples().resolve("seed-1ms.pt.trace.json");
        assertEquals(SparkRuns.cliJson(single), sparkJson(single.toString()));
    }

    @Test
    void aSixtyFourRankJobWithASlowRankAndAReorderedCollective() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job64"), 64, 3,
                "\"slowRank\": 17, \"delayUs\": 300, \"bucketTypes\": [\"allreduce\", \"reducescatter\", \"allreduce\"], "
                        + "\"perturbations\": [{\"kind\": \"reorder\", \"rank\": 40, \"step\": 2, \"bucket\": 2}]");
        String cli = SparkRuns.cliJson(dir);
        JsonNode cross = JsonRenderer.mapper().readTree(cli).get("crossRank");
        assertTrue(cross.get("mismatches").size() > 0, "the reordered collective is a mismatch");
        assertEquals(cli, sparkJson(dir.toString()));
        // Every rank's report written by its task and copied in by the driver: the same bytes.
        assertEquals(cli, sparkJson("--conf", "spark.driver.maxResultSize=1m", dir.toString()));
    }
}
