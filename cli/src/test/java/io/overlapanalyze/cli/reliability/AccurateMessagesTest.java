package io.overlapanalyze.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Error messages say what is actually wrong. */
class AccurateMessagesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void aBareArrayIsSaidToBeOne() throws IOException {
        Path events = Files.writeString(tmp.resolve("events.json"), "[{\"ph\":\"X\",\"name\":\"k\",\"ts\":1,\"dur\":2}]");
        Cli run = Cli.run(events.toString());
        run.assertOneLineError(events, "a bare array of events");
        assertTrue(run.err().contains("a JSON array of events that is not an Ascend timeline")
                && run.err().contains("traceEvents"), run.err());
        Path empty = Files.writeString(tmp.resolve("empty.json"), " [ ] ");
        Cli none = Cli.run(empty.toString());
        none.assertOneLineError(empty, "an empty array");
        assertTrue(none.err().contains("an empty JSON array"), none.err());
    }

    @Test
    void aTimeBeyondTheNanosecondRangeIsSaidToBeSo() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(HostileCorpus.kinetoSeed());
        for (JsonNode e : root.get("traceEvents")) {
            if ("X".equals(e.path("ph").asText()) && "kernel".equals(e.path("cat").asText())) {
                // 1 January 3000 in epoch microseconds: a number, but 3.25e19 ns does not fit a long.
                ((ObjectNode) e).put("ts", 32_503_680_000_000_000L);
                break;
            }
        }
        Path p = Files.writeString(tmp.resolve("year-3000.json"), JSON.writeValueAsString(root));
        // Issue 29 item 10: that one kernel is skipped with a counted warning; the file is analysed, not refused.
        Cli run = Cli.run(p.toString());
        run.assertAnalysed("a year-3000 timestamp");
        assertEquals(1, run.errLines().size(), run.err());
        assertTrue(run.err().contains("2262") && run.err().contains("skipped") && run.err().contains(p.getFileName().toString()),
                "says the time is beyond the range: " + run.err());
        assertFalse(run.err().contains("expected a number"), "it is a number: " + run.err());
    }
}
