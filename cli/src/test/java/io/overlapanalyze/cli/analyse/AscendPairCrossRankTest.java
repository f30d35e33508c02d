package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.overlapanalyze.render.JsonRenderer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ascend acceptance: the two torch_npu ranks analysed together have their collectives matched by
 * the hcom_ sequence number, no mismatches, and clock offsets reported (one per rank, summing to
 * zero as offsets against the mean clock do).
 */
class AscendPairCrossRankTest {
    @ParameterizedTest
    @ValueSource(strings = {"torch_npu_text_level1", "torch_npu_db_level1"})
    void bothRanksTogether(String capture) throws IOException {
        Path dir = SharedTraces.root().resolve("ascend").resolve(capture);
        Assumptions.assumeTrue(Files.isDirectory(dir), dir + " not found: skipping");
        CliRun run = CliRun.of("-f", "json", dir.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        JsonNode cross = JsonRenderer.mapper().readTree(run.out()).get("crossRank");
        assertEquals(2, cross.get("ranks").size(), cross.toString());
        assertEquals(0, cross.get("mismatches").size(), "no mismatches: " + cross.get("mismatches"));
        JsonNode groups = cross.get("groups");
        assertEquals(1, groups.size());
        assertEquals("SEQUENCE", groups.get(0).get("matchedBy").asText());
        // communication.json of both ranks lists hcom_allReduce__586_{0,1,2,3}_1: four, sequences 0-3.
        assertEquals(4, groups.get(0).get("matched").asInt(), "4 all-reduces in the step, on both ranks");
        JsonNode offsets = cross.get("clockOffsetsNs");
        assertTrue(offsets.has("0") && offsets.has("1"), offsets.toString());
        assertEquals(0, offsets.get("0").asLong() + offsets.get("1").asLong());
    }
}
