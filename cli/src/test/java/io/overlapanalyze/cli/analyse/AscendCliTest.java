package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;
import io.overlapanalyze.cli.ExitCodes;
import io.overlapanalyze.cli.SharedTraces;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI around the Ascend reader: synth --format ascend, --cross-check in text, crossCheck in JSON. */
class AscendCliTest {
    @TempDir
    Path tmp;

    @Test
    void synthWritesACaptureDirectoryThatAnalyses() {
        Path dir = tmp.resolve("seed-4ms_ascend_pt");
        CliRun synth = CliRun.of("synth", "seed-4ms", "--format", "ascend", "-o", dir.toString());
        assertEquals(ExitCodes.OK, synth.exitCode(), synth.err());
        assertTrue(Files.isRegularFile(dir.resolve("ASCEND_PROFILER_OUTPUT/trace_view.json")));
        assertTrue(Files.isRegularFile(dir.resolve("profiler_info_0.json")));
        CliRun run = CliRun.of(dir.toString());
        assertEquals(ExitCodes.OK, run.exitCode(), run.err());
        assertTrue(run.out().contains("COMM_BOUND"), run.out());
        assertTrue(run.out().contains("(ascend)") && !run.out().contains("assumed"), run.out());
        CliRun again = CliRun.of("synth", "seed-4ms", "--format", "ascend", "-o", dir.toString());
        assertEquals(ExitCodes.BAD_INPUT, again.exitCode(), "never writes into an existing path");
    }

    @Test
    void crossCheckInTextAndAlwaysInJson() throws Exception {
        Path dir = SharedTraces.root().resolve("ascend/torch_npu_text_level1/rank0_ascend_pt");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(dir), dir + " not found: skipping");
        CliRun text = CliRun.of("--cross-check", dir.toString());
        assertEquals(ExitCodes.OK, text.exitCode(), text.err());
        assertTrue(text.out().contains("cross-check against trace_view.json Overlap Analysis lane"), text.out());
        // The lane's Communication for step 50 (PROVENANCE.md): 105,991.878 µs, printed half up.
        assertTrue(text.out().contains("105.992"), text.out());
        CliRun plain = CliRun.of(dir.toString());
        assertTrue(!plain.out().contains("cross-check against"), "only with --cross-check");

        CliRun json = CliRun.of("-f", "json", dir.toString());
        assertEquals(ExitCodes.OK, json.exitCode(), json.err());
        JsonNode cc = new ObjectMapper().readTree(json.out()).path("ranks").get(0).path("crossCheck");
        assertEquals(1, cc.size());
        assertEquals("ProfilerStep#50", cc.get(0).path("step").asText());
        assertEquals(105_991_878L, cc.get(0).path("communication").path("theirsNs").asLong());
        assertEquals(101_963_203L, cc.get(0).path("exposedCommunication").path("theirsNs").asLong());
    }

    /**
     * The 2024 bare timeline of msprof-analyze's advisor unit tests (the fixture of
     * trace-formats' AscendLegacyTimelineTest): one rank, no "also in" notice, and the cross-check
     * filled: our compute equals the lane's Computing, 343,677 ns (computed by hand there).
     */
    @Test
    void legacyBareTimelineIsOneRankWithItsCrossCheck() throws Exception {
        Path timeline = Path.of("../trace-formats/src/test/resources/ascend/msprof-analyze-advisor-2024/trace_view.json");
        CliRun json = CliRun.of("-f", "json", timeline.toString());
        assertEquals(ExitCodes.OK, json.exitCode(), json.err());
        JsonNode report = new ObjectMapper().readTree(json.out());
        assertEquals(1, report.path("ranks").size(), json.out());
        JsonNode cc = report.path("ranks").get(0).path("crossCheck");
        assertEquals(1, cc.size(), cc.toString());
        assertEquals("all", cc.get(0).path("step").asText());
        assertEquals(343_677L, cc.get(0).path("computing").path("theirsNs").asLong(), cc.toString());
        assertEquals(343_677L, cc.get(0).path("computing").path("oursNs").asLong(), cc.toString());
        CliRun text = CliRun.of("--cross-check", timeline.toString());
        assertEquals(ExitCodes.OK, text.exitCode(), text.err());
        assertTrue(!text.out().contains("is also in") && !text.err().contains("is also in"), text.out() + text.err());
        assertTrue(java.util.regex.Pattern.compile("computing / computeBusy\\s+0\\.344\\s+0\\.344\\s+\\+0\\b")
                .matcher(text.out()).find(), text.out());
    }
}
