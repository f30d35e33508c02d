package io.overlapanalyze.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.overlapanalyze.formats.input.FormatDetector;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.Sniffer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which files found in a directory are no trace at all, and which are left to the readers; said
 * from the sniffed head where it can, from the whole file where it cannot, the same either way.
 */
class TraceContentTest {
    private static final String NO_TRACE_EVENTS = "not a trace (a JSON object without \"traceEvents\")";

    @TempDir
    Path dir;

    @Test
    void onlyAWholeJsonObjectWithoutTraceEventsIsNoTrace() throws IOException {
        Files.writeString(dir.resolve("a.json"), "{\"lr\": 0.1}");
        Files.writeString(dir.resolve("b.json"), "{\"kind\": \"overlap-analyze diff\", \"metrics\": []}");
        Files.writeString(dir.resolve("cut.json"), "{\"lr\": 0.1, ");
        Files.writeString(dir.resolve("events.json"), "{\"x\": 1, \"traceEvents\": [");
        Files.writeString(dir.resolve("garbage.json"), "not json");
        assertBothWays(NO_TRACE_EVENTS, "a.json");
        assertBothWays("not a trace (an overlap-analyze diff file)", "b.json");
        assertBothWays(null, "cut.json"); // cut: left to the reader, which names the damage
        assertBothWays(null, "events.json");
        assertBothWays(null, "garbage.json");
    }

    /** Objects larger than the head: the keys past it, or what follows the object, decide. */
    @Test
    void aFileLargerThanTheHeadIsDecidedByAllOfIt() throws IOException {
        String pad = "\"pad\": \"" + "x".repeat(FormatDetector.HEAD_BYTES) + "\"";
        Files.writeString(dir.resolve("big.json"), "{" + pad + ", \"lr\": 0.1}\n");
        Files.writeString(dir.resolve("late-events.json"), "{" + pad + ", \"traceEvents\": []}");
        Files.writeString(dir.resolve("junk-after.json"), "{" + pad + "} trailing");
        Files.writeString(dir.resolve("cut-late.json"), "{" + pad + ", \"lr\": ");
        assertBothWays(NO_TRACE_EVENTS, "big.json");
        assertBothWays(null, "late-events.json");
        assertBothWays(null, "junk-after.json");
        assertBothWays(null, "cut-late.json");
    }

    /** A literal split by the head's end is no damage: the rest of the file says what it is. */
    @Test
    void aLiteralSplitAtTheHeadsEndIsNotTakenForDamage() throws IOException {
        String open = "{\"a\": \"";
        int fill = FormatDetector.HEAD_BYTES - open.length() - "\", \"b\": tr".length();
        String doc = open + "y".repeat(fill) + "\", \"b\": true, \"c\": 1}";
        assertEquals(FormatDetector.HEAD_BYTES, doc.indexOf("ue, \"c\"")); // the head ends after "tr"
        Files.writeString(dir.resolve("split.json"), doc);
        assertBothWays(NO_TRACE_EVENTS, "split.json");
    }

    /** A gzip stream cut inside a JSON object: its head is all that can be read, and it is no whole object. */
    @Test
    void aDamagedGzipObjectIsLeftToTheReaders() throws IOException {
        Path whole = dir.resolve("whole.json.gz");
        try (OutputStream z = new GZIPOutputStream(Files.newOutputStream(whole))) {
            z.write(("{\"lr\": 0.1, \"pad\": \"" + "z".repeat(10_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = Files.readAllBytes(whole);
        Files.write(dir.resolve("damaged.json.gz"), Arrays.copyOf(bytes, bytes.length - 12));
        assertBothWays(NO_TRACE_EVENTS, "whole.json.gz");
        assertBothWays(null, "damaged.json.gz");
    }

    /** The verdict through the sniffed head and through the whole file, both {@code expected}. */
    private void assertBothWays(String expected, String name) throws IOException {
        Path f = dir.resolve(name);
        assertEquals(expected, TraceContent.notATrace(f, InputLimits.DEFAULT, Sniffer.STANDARD), name + ", the whole file");
        assertEquals(expected, TraceContent.notATrace(SniffedInput.of(f, InputLimits.DEFAULT), InputLimits.DEFAULT,
                Sniffer.STANDARD), name + ", from the head");
    }
}
