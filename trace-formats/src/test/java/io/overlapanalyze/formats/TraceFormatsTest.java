package io.overlapanalyze.formats;

import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The front door: a new format is one {@link FormatReader} and one registry entry. A made-up
 * format ("FAKE" files, *.fake) is found in a directory, sniffed through gzip, read, its rank
 * named from the file name; the standard registry refuses it as before.
 */
class TraceFormatsTest {
    @TempDir
    Path dir;

    /** A format whose files start with "FAKE v1"; it hands back a trace the test made, and records what it was asked. */
    private static final class FakeFormat implements FormatReader {
        final RankTrace trace;
        final List<Path> read = new ArrayList<>();

        FakeFormat(RankTrace trace) {
            this.trace = trace;
        }

        @Override
        public boolean acceptsFileName(String fileName) {
            return fileName.endsWith(".fake");
        }

        @Override
        public String inputNames() {
            return "*.fake";
        }

        @Override
        public boolean recognises(SniffedInput input) {
            return input.startsWith("FAKE v1");
        }

        @Override
        public List<RankTrace> read(SniffedInput input, ReadOptions options) throws TraceFormatException {
            if (new String(input.head(), StandardCharsets.US_ASCII).contains("broken")) {
                throw new TraceFormatException(input.path() + ": broken\nfake");
            }
            read.add(input.path());
            return List.of(trace);
        }
    }

    /** A Kineto trace from the standard readers, the model the fake reader hands back. */
    private RankTrace someTrace() throws Exception {
        Path kineto = Files.writeString(dir.resolve("seed.json"), "{\"traceEvents\": []}");
        List<RankTrace> traces = TraceFormats.standard().read(kineto);
        Files.delete(kineto);
        assertEquals(1, traces.size());
        return traces.get(0);
    }

    @Test
    void aRegisteredReaderReadsItsFilesThroughTheFrontDoor() throws Exception {
        FakeFormat fake = new FakeFormat(someTrace());
        TraceFormats formats = TraceFormats.standard().withReader(fake);
        Path job = Files.createDirectories(dir.resolve("job"));
        Path plain = Files.writeString(job.resolve("rank-3.fake"), "FAKE v1\n");
        Path gz = job.resolve("rank-4.fake");
        Files.write(gz, gzip("FAKE v1\n"));
        Files.writeString(job.resolve("notes.txt"), "FAKE v1\n"); // no reader accepts the name: not walked

        List<Path> files = formats.expand(job);
        assertEquals(List.of(plain, gz), files);
        assertSame(fake.trace, formats.read(plain).get(0));
        assertSame(fake.trace, formats.read(gz).get(0), "sniffed through gzip");

        JobReader.Read<RankTrace> read = formats.readInParallel(files, ReadOptions.DEFAULT, new RankNaming(null),
                t -> t, null);
        assertEquals(List.of(3, 4), read.results().stream().map(RankTrace::rank).toList(),
                "ranks named from the file names rank-3, rank-4");
        assertEquals(List.of(), read.unreadable());
    }

    @Test
    void theReadersErrorIsOneLineAndCollectedPerFile() throws Exception {
        FakeFormat fake = new FakeFormat(someTrace());
        TraceFormats formats = TraceFormats.standard().withReader(fake);
        Path good = Files.writeString(dir.resolve("rank-0.fake"), "FAKE v1\n");
        Path bad = Files.writeString(dir.resolve("rank-1.fake"), "FAKE v1 broken\n");

        TraceFormatException e = assertThrows(TraceFormatException.class, () -> formats.read(bad));
        assertEquals(bad + ": broken fake", e.getMessage());

        JobReader.Read<RankTrace> read = formats.readInParallel(List.of(good, bad), ReadOptions.DEFAULT,
                new RankNaming(null), t -> t, null);
        assertEquals(1, read.results().size());
        assertEquals(List.of(new JobReader.Unreadable(bad, bad + ": broken fake")), read.unreadable());
    }

    @Test
    void withoutTheEntryTheFormatIsNotRead() throws IOException {
        Path plain = Files.writeString(dir.resolve("rank-3.fake"), "FAKE v1\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceFormats.standard().read(plain));
        assertEquals(plain + ": not a trace this tool reads (expected one of: a PyTorch Flight Recorder dump (pickle "
                + "or JSON); PyTorch profiler (Kineto) JSON, optionally gzip-compressed; an Nsight Systems SQLite export; "
                + "an Ascend profiler capture directory, timeline JSON or database)", e.getMessage());
        TraceFormatException walk = assertThrows(TraceFormatException.class, () -> TraceFormats.standard().expand(dir));
        assertEquals(dir + ": directory holds no trace files (Flight Recorder *trace*<rank>, *dump*<rank>, *.json, "
                + "*.json.gz, *.sqlite, Ascend *_ascend_pt or PROF_* directories)", walk.getMessage());
        assertTrue(TraceFormats.standard().withReader(new FakeFormat(null)).isTraceFileName("x.fake"));
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        return bytes.toByteArray();
    }
}
