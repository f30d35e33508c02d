package io.overlapanalyze.reportfile;

import io.overlapanalyze.formats.ToolFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Diff and gate tell their inputs apart by {@link ToolFile}: a summary is read, any other result of
 * this tool (a kind it writes, or an {@code "overlap-analyze …"} kind from a newer version) is refused
 * as such, and a trace or a plain JSON document goes to the readers. The documents are written here by
 * hand, each with the kind string spelled out, so a changed kind fails.
 */
class ToolFileKindsTest {
    @TempDir
    Path dir;

    private Path file(String name, String json) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, json);
        return f;
    }

    private static String result(String kind) {
        return "{\"kind\": \"" + kind + "\", \"schemaVersion\": 1, \"ranks\": []}";
    }

    @Test
    void theKindsAreSpelledAsTheContractSays() {
        assertEquals("overlap-analyze summary", ToolFile.SUMMARY.kind());
        assertEquals("overlap-analyze diff", ToolFile.DIFF.kind());
        assertEquals("overlap-analyze gate", ToolFile.GATE.kind());
        assertEquals("overlap-analyze history", ToolFile.HISTORY.kind());
    }

    @Test
    void aSummaryIsReadAndEveryOtherResultIsRefusedAsOne() throws IOException {
        assertEquals(SummaryFile.Content.SUMMARY,
                SummaryFile.classify(file("s.json", result("overlap-analyze summary"))));
        for (String other : new String[] {"overlap-analyze diff", "overlap-analyze gate", "overlap-analyze history",
                "overlap-analyze whatever-comes-next"}) {
            assertEquals(SummaryFile.Content.OTHER_RESULT, SummaryFile.classify(file("r.json", result(other))), other);
        }
    }

    @Test
    void aTraceOrAForeignDocumentIsLeftToTheReaders() throws IOException {
        assertEquals(SummaryFile.Content.NOT_SUMMARY,
                SummaryFile.classify(file("t.json", "{\"traceEvents\": [], \"kind\": \"overlap-analyze diff\"}")));
        assertEquals(SummaryFile.Content.NOT_SUMMARY,
                SummaryFile.classify(file("c.json", "{\"kind\": \"other-tool summary\"}")));
    }
}
