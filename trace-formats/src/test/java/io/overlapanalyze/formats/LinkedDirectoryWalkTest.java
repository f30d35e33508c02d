package io.overlapanalyze.formats;

import io.overlapanalyze.formats.input.FormatReader;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 item 11: a job directory assembled with {@code ln -s} is read like one of copies. Links
 * to files are followed, a link to a capture read whole is an input, links to other directories out
 * of the input are never walked, loops and links to nothing are named; the walk never follows a
 * directory link, and a file reached by two names is read once. Ranks live in {@code data}, the job
 * directory of links in {@code job}; the expected lists are the links the test made.
 */
class LinkedDirectoryWalkTest {
    @TempDir
    Path tmp;

    /** Captures are directories holding a {@code CAPTURE_OUTPUT} folder: read whole, as Ascend's are (by content). */
    private static final TraceFormats FORMATS = TraceFormats.standard().withReader(new FormatReader() {
        @Override
        public String inputNames() {
            return "capture directories";
        }

        @Override
        public boolean isInputDirectory(Path dir) {
            return Files.isDirectory(dir.resolve("CAPTURE_OUTPUT"));
        }

        @Override
        public boolean recognises(SniffedInput input) {
            return false;
        }

        @Override
        public List<RankTrace> read(SniffedInput input, ReadOptions options) {
            throw new UnsupportedOperationException("never read here");
        }
    });

    private Path data() throws IOException {
        Path data = Files.createDirectories(tmp.resolve("data"));
        for (int r = 0; r < 3; r++) {
            Files.writeString(data.resolve("rank-" + r + ".pt.trace.json"), "{}");
        }
        return data;
    }

    @Test
    void aDirectoryOfLinksToTraceFilesIsReadThroughItsLinks() throws Exception {
        Path data = data();
        Path job = Files.createDirectories(tmp.resolve("job"));
        // Named like traces, and named only by rank (the target's name is a trace's).
        Path a = Files.createSymbolicLink(job.resolve("rank-0.pt.trace.json"), data.resolve("rank-0.pt.trace.json"));
        Path b = Files.createSymbolicLink(job.resolve("r1"), data.resolve("rank-1.pt.trace.json"));
        List<String> notes = new ArrayList<>();
        assertEquals(List.of(b, a), FORMATS.expand(job, null, notes));
        assertEquals(List.of(), notes);
    }

    @Test
    void aDirectoryThatIsItselfALinkIsWalkedAndNamedAsTyped() throws Exception {
        Path data = data();
        Path latest = Files.createSymbolicLink(tmp.resolve("latest"), data);
        assertEquals(List.of(latest.resolve("rank-0.pt.trace.json"), latest.resolve("rank-1.pt.trace.json"),
                latest.resolve("rank-2.pt.trace.json")), FORMATS.expand(latest));
    }

    @Test
    void aLinkToACaptureOutsideTheInputIsAnInputReadWhole() throws Exception {
        Path capture = Files.createDirectories(tmp.resolve("elsewhere/rank0"));
        Files.createDirectories(capture.resolve("CAPTURE_OUTPUT"));
        Files.writeString(capture.resolve("inside.json"), "{}");
        Path job = Files.createDirectories(tmp.resolve("job"));
        Path link = Files.createSymbolicLink(job.resolve("rank0"), capture);
        assertEquals(List.of(link), FORMATS.expand(job));
    }

    @Test
    void aLinkToAnotherDirectoryOutsideTheInputIsNamedNotFollowed() throws Exception {
        Path data = data();
        Path job = Files.createDirectories(tmp.resolve("job"));
        Path link = Files.createSymbolicLink(job.resolve("all-ranks"), data);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> FORMATS.expand(job));
        assertTrue(e.getMessage().startsWith(job + ": directory holds no trace files ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("; " + link + ": a symbolic link to a directory outside " + job + " (-> "
                + data + "), not followed"), e.getMessage());

        // Beside a trace: the trace is read, the link named in a note.
        Path own = Files.writeString(job.resolve("rank-9.pt.trace.json"), "{}");
        List<String> notes = new ArrayList<>();
        assertEquals(List.of(own), FORMATS.expand(job, null, notes));
        assertEquals(List.of(link + ": a symbolic link to a directory outside " + job + " (-> " + data
                + "), not followed"), notes);
    }

    @Test
    void loopsAndLinksToNothingAreNamed() throws Exception {
        Path job = Files.createDirectories(tmp.resolve("job"));
        Path trace = Files.writeString(job.resolve("rank-0.pt.trace.json"), "{}");
        Path sub = Files.createDirectories(job.resolve("sub"));
        Path up = Files.createSymbolicLink(sub.resolve("up"), Path.of(".."));
        Path loopA = Files.createSymbolicLink(job.resolve("loop-a"), Path.of("loop-b"));
        Path loopB = Files.createSymbolicLink(job.resolve("loop-b"), Path.of("loop-a"));
        Path gone = Files.createSymbolicLink(job.resolve("gone"), Path.of("nothing-here"));
        // Named like a trace: an input, so that the reader reports the rank unreadable (never silence).
        Path goneRank = Files.createSymbolicLink(job.resolve("rank-1.pt.trace.json"), Path.of("deleted.json"));
        Path loopRank = Files.createSymbolicLink(job.resolve("rank-2.pt.trace.json"), Path.of("rank-2.pt.trace.json"));

        List<String> notes = new ArrayList<>();
        assertEquals(List.of(trace, goneRank, loopRank), FORMATS.expand(job, null, notes));
        assertEquals(List.of(
                gone + ": a symbolic link to nothing (-> nothing-here), skipped",
                loopA + ": a loop of symbolic links (-> loop-b), skipped",
                loopB + ": a loop of symbolic links (-> loop-a), skipped",
                up + ": a symbolic link to an enclosing directory (a loop), not followed"), notes);

        TraceFormatException loop = assertThrows(TraceFormatException.class, () -> FORMATS.read(loopRank));
        assertEquals(loopRank + ": a loop of symbolic links (rank-2.pt.trace.json)", loop.getMessage());
        TraceFormatException dangling = assertThrows(TraceFormatException.class, () -> FORMATS.read(goneRank));
        assertEquals(goneRank + ": a symbolic link to a file that does not exist (deleted.json)", dangling.getMessage());
    }

    @Test
    void aFileReachedByTwoNamesIsReadOnce() throws Exception {
        Path job = Files.createDirectories(tmp.resolve("job"));
        Path rank0 = Files.writeString(job.resolve("rank-0.pt.trace.json"), "{}");
        Path rank1 = Files.writeString(job.resolve("rank-1.pt.trace.json"), "{}");
        // "a-latest.json" sorts first but is a link: the plain file is kept.
        Files.createSymbolicLink(job.resolve("a-latest.json"), rank1.getFileName());
        assertEquals(List.of(rank0, rank1), FORMATS.expand(job));
    }

    @Test
    void theExpansionOfSeveralPathsCarriesTheNotes() throws Exception {
        Path data = data();
        Path job = Files.createDirectories(tmp.resolve("job"));
        Path rank = Files.createSymbolicLink(job.resolve("rank-0.pt.trace.json"), data.resolve("rank-0.pt.trace.json"));
        Path out = Files.createSymbolicLink(job.resolve("other"), data);
        TraceFormats.Expanded e = FORMATS.expand(List.of(job), null, (f, s) -> true);
        assertEquals(List.of(rank), e.files());
        assertEquals(List.of(out + ": a symbolic link to a directory outside " + job + " (-> " + data
                + "), not followed"), e.skipped());
    }
}
