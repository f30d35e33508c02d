package io.overlapanalyze.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which files found in a directory are no trace at all, and which are left to the readers. */
class TraceContentTest {
    @TempDir
    Path dir;

    @Test
    void onlyAWholeJsonObjectWithoutTraceEventsIsNoTrace() throws IOException {
        Files.writeString(dir.resolve("a.json"), "{\"lr\": 0.1}");
        Files.writeString(dir.resolve("b.json"), "{\"kind\": \"overlap-analyze diff\", \"metrics\": []}");
        Files.writeString(dir.resolve("cut.json"), "{\"lr\": 0.1, ");
        Files.writeString(dir.resolve("events.json"), "{\"x\": 1, \"traceEvents\": [");
        Files.writeString(dir.resolve("garbage.json"), "not json");
        assertEquals("not a trace (a JSON object without \"traceEvents\")", TraceContent.notATrace(dir.resolve("a.json"), io.overlapanalyze.formats.input.InputLimits.DEFAULT));
        assertEquals("not a trace (an overlap-analyze diff file)", TraceContent.notATrace(dir.resolve("b.json"), io.overlapanalyze.formats.input.InputLimits.DEFAULT));
        assertNull(TraceContent.notATrace(dir.resolve("cut.json"), io.overlapanalyze.formats.input.InputLimits.DEFAULT), "cut: left to the reader, which names the damage");
        assertNull(TraceContent.notATrace(dir.resolve("events.json"), io.overlapanalyze.formats.input.InputLimits.DEFAULT));
        assertNull(TraceContent.notATrace(dir.resolve("garbage.json"), io.overlapanalyze.formats.input.InputLimits.DEFAULT));
    }
}
