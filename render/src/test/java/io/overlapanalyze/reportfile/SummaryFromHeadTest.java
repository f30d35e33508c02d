package io.overlapanalyze.reportfile;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.Sniffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Diff and gate tell a summary from a trace by the head the front door sniffed (docs/decisions.md,
 * "Telling inputs apart"): each document here is classified from its sniffed head and by reading the
 * whole file, both giving the expected kind, and the file is read on (one more open, counted through
 * the front door's seam) only when its head ends before every deciding key. The documents are
 * written by hand around the 64 KiB head.
 */
class SummaryFromHeadTest {
    private static final int HEAD = 64 * 1024;
    private static final String PAST_THE_HEAD = "x".repeat(HEAD + 1000);

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    /** Classifies {@code f} from its sniffed head, then by reading it whole; returns how often it was read on. */
    private int assertBothWays(SummaryFile.Content expected, Path f) throws IOException {
        AtomicInteger readOns = new AtomicInteger();
        TraceFormats formats = TraceFormats.standard().withSniffer(new Sniffer() {
            @Override
            public SniffedInput sniff(Path input, InputLimits limits) throws IOException {
                return SniffedInput.of(input, limits);
            }

            @Override
            public InputStream readOn(Path input, InputLimits limits) throws IOException {
                readOns.incrementAndGet();
                return Sniffer.super.readOn(input, limits);
            }
        });
        assertEquals(expected, SummaryFile.classify(f, SniffedInput.of(f, InputLimits.DEFAULT), formats),
                f.getFileName() + ", from the head");
        assertEquals(expected, SummaryFile.classify(f), f.getFileName() + ", the whole file");
        return readOns.get();
    }

    @Test
    void aSummaryOrAnotherResultIsToldByItsFirstKeyWithinTheHead() throws IOException {
        assertEquals(0, assertBothWays(SummaryFile.Content.SUMMARY, file("s.json", "{\"kind\": \"overlap-analyze summary\", "
                + "\"pad\": \"" + PAST_THE_HEAD + "\", \"schemaVersion\": 1, \"ranks\": []}")));
        assertEquals(0, assertBothWays(SummaryFile.Content.OTHER_RESULT, file("d.json",
                "{\"kind\": \"overlap-analyze diff\", \"pad\": \"" + PAST_THE_HEAD + "\"}")));
    }

    @Test
    void aTraceIsToldByTraceEventsWithinTheHead() throws IOException {
        assertEquals(0, assertBothWays(SummaryFile.Content.NOT_SUMMARY, file("t.json", "{\"schemaVersion\": 1, "
                + "\"traceEvents\": [{\"name\": \"" + PAST_THE_HEAD + "\"}], \"ranks\": []}")));
    }

    @Test
    void sqliteAndJsonArraysAreToldByTheirFirstByte() throws IOException {
        Path sqlite = Files.write(dir.resolve("e.sqlite"), ("SQLite format 3\0" + PAST_THE_HEAD).getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, assertBothWays(SummaryFile.Content.NOT_SUMMARY, sqlite));
        assertEquals(0, assertBothWays(SummaryFile.Content.NOT_SUMMARY, file("trace_view.json",
                "[{\"name\": \"" + PAST_THE_HEAD + "\"}]")));
    }

    @Test
    void aFileWithinTheHeadIsToldByAllOfIt() throws IOException {
        assertEquals(0, assertBothWays(SummaryFile.Content.SUMMARY, file("r.json", "{\"schemaVersion\": 1, \"ranks\": []}")));
        assertEquals(0, assertBothWays(SummaryFile.Content.NOT_SUMMARY, file("c.json", "{\"world_size\": 4}")));
        assertEquals(0, assertBothWays(SummaryFile.Content.NOT_SUMMARY, file("cut.json", "{\"schemaVersion\": 1, \"ran")));
        assertEquals(0, assertBothWays(SummaryFile.Content.SUMMARY,
                file("cut-summary.json", "{\"kind\": \"overlap-analyze summary\", \"schemaVersion\": 1, \"ranks\": [")));
    }

    /** A JSON object whose head ends before any deciding key: read on, and decided as the whole file says. */
    @Test
    void anObjectWhoseDecidingKeysLiePastTheHeadIsReadOn() throws IOException {
        assertEquals(1, assertBothWays(SummaryFile.Content.SUMMARY, file("report.json",
                "{\"schemaVersion\": 1, \"note\": \"" + PAST_THE_HEAD + "\", \"ranks\": []}")));
        assertEquals(1, assertBothWays(SummaryFile.Content.NOT_SUMMARY, file("late-trace.json",
                "{\"schemaVersion\": 1, \"note\": \"" + PAST_THE_HEAD + "\", \"traceEvents\": [], \"ranks\": []}")));
        assertEquals(1, assertBothWays(SummaryFile.Content.OTHER_RESULT, file("late-kind.json",
                "{\"note\": \"" + PAST_THE_HEAD + "\", \"kind\": \"overlap-analyze gate\"}")));
        assertEquals(1, assertBothWays(SummaryFile.Content.NOT_SUMMARY, file("other-tool.json",
                "{\"note\": \"" + PAST_THE_HEAD + "\", \"world_size\": 4}")));
    }

    @Test
    void aGzipSummaryIsToldFromItsDecompressedHead() throws IOException {
        Path gz = dir.resolve("s.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(("{\"kind\": \"overlap-analyze summary\", \"pad\": \"" + PAST_THE_HEAD
                    + "\", \"schemaVersion\": 1, \"ranks\": []}").getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(0, assertBothWays(SummaryFile.Content.SUMMARY, gz));
    }

    /**
     * The one place the head decides where the whole file was read before: a document that starts with
     * this tool's kind is this tool's file, whatever follows (no writer of this tool puts a
     * {@code traceEvents} after its kind). Before, a top-level {@code traceEvents} later on made it a trace.
     */
    @Test
    void thisToolsKindFirstDecidesWhateverFollows() throws IOException {
        assertEquals(0, assertBothWays(SummaryFile.Content.OTHER_RESULT,
                file("odd.json", "{\"kind\": \"overlap-analyze diff\", \"traceEvents\": []}")));
    }
}
