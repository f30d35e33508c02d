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

/** Bad input as in the CLI: a damaged rank is named and the others are analysed; a missing input is exit 2, one line. */
class SparkBadInputTest {
    @TempDir
    Path tmp;

    @Test
    void aTruncatedAndAnUnreadableRankAmongGoodOnes() throws IOException {
        Path dir = SparkRuns.job(tmp.resolve("job"), 6, 3, "\"slowRank\": 4, \"delayUs\": 200");
        Path truncated = dir.resolve("rank-1.pt.trace.json");
        byte[] whole = Files.readAllBytes(truncated);
        Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length * 3 / 5));
        Path unreadable = dir.resolve("rank-2.pt.trace.json");
        Files.writeString(unreadable, "{\"traceEvents\": [ this is not json");

        String cli = SparkRuns.cliJson(dir);
        Path out = tmp.resolve("spark.json");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", "-o", out.toString(), dir.toString());
        assertEquals(0, run.code(), run.err());
        assertEquals(cli, Files.readString(out, StandardCharsets.UTF_8));

        JsonNode report = JsonRenderer.mapper().readTree(cli);
        assertEquals(5, report.get("ranks").size(), "the unreadable rank is left out, the truncated one is analysed");
        assertTrue(report.get("crossRank").toString().contains("rank-2.pt.trace.json"), "the report names the unreadable rank");
        assertTrue(run.err().contains(unreadable + ":") && run.err().contains("the other inputs are analysed"), run.err());
        assertTrue(run.err().contains("warning:") && run.err().contains(truncated.toString()),
                "the truncated rank's warning names it: " + run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
    }

    @Test
    void aMissingPathOrUriIsExitTwoWithOneLine() {
        for (String missing : new String[] {tmp.resolve("nothing-here").toString(), tmp.resolve("gone").toUri().toString()}) {
            SparkRuns.Run run = SparkRuns.spark("-f", "json", missing);
            assertEquals(2, run.code(), run.err());
            assertEquals(1, run.err().strip().lines().count(), run.err());
            assertTrue(run.err().contains(missing) && run.err().contains("no such file or directory"), run.err());
        }
    }

    @Test
    void nothingReadableIsExitTwoNamingTheFile() throws IOException {
        Path bad = tmp.resolve("rank-0.pt.trace.json");
        Files.writeString(bad, "not a trace");
        SparkRuns.Run run = SparkRuns.spark("-f", "json", bad.toString());
        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().startsWith("overlap-analyze-spark: " + bad), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
    }

    @Test
    void aBadOptionIsExitTwoBeforeSparkStarts() {
        SparkRuns.Run run = SparkRuns.spark("--rank-regex", "no-group", SparkRuns.samples().resolve("seed-1ms.pt.trace.json").toString());
        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().contains("--rank-regex"), run.err());
    }
}
