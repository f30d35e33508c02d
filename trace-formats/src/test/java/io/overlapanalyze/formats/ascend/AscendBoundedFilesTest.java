package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.sqlite.SharedExports;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * issue 29 item 4: every file of an Ascend capture is bounded. A NUL-filled {@code memory_record.csv}
 * of 3 GB (what a crash leaves: the size written, the blocks not; made here as a sparse file, so
 * nothing is written to disk) ran out of memory after 48 s as one 3 GB line; now it is a warning
 * naming the file, in well under a second, and the rest of the capture is analysed as before.
 * The same for a line over 1 MiB, for a file over {@code --max-input-size}, and for a NUL-filled
 * {@code profiler_info_<rank>.json}. Runs with the module's normal test heap.
 */
class AscendBoundedFilesTest {
    private static final String CAPTURE = "ascend/torch_npu_text_level1/rank0_ascend_pt";
    private static final String OUT = "ASCEND_PROFILER_OUTPUT";
    private static final long THREE_GB = 3L << 30;

    @TempDir
    Path tmp;

    private static String warning(RankTrace t, String part) {
        for (String w : t.warnings()) {
            if (w.contains(part)) {
                return w;
            }
        }
        throw new AssertionError("no warning containing \"" + part + "\" in " + t.warnings());
    }

    /** Replaces {@code file} by a sparse file of {@code length} NUL bytes. */
    private static void nulFilled(Path file, long length) throws Exception {
        Files.deleteIfExists(file);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
    }

    private static RankTrace read(Path capture) {
        return read(capture, InputLimits.DEFAULT);
    }

    private static RankTrace read(Path capture, InputLimits limits) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            List<RankTrace> ranks = new AscendReader(io.overlapanalyze.formats.kernels.KernelRules.builtIn(), limits)
                    .read(capture);
            assertEquals(1, ranks.size());
            return ranks.get(0);
        });
    }

    @Test
    void aNulFilledMemoryRecordOfThreeGigabytesIsAWarningAndTheRestIsRead() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        RankTrace original = read(capture);
        assertTrue(original.memory().size() > 0, "the shared capture has memory records");
        nulFilled(capture.resolve(OUT).resolve("memory_record.csv"), THREE_GB);
        RankTrace t = read(capture);
        assertEquals(original.device().size(), t.device().size(), "the timeline read as before");
        assertEquals(original.collectives().size(), t.collectives().size());
        assertEquals(0, t.memory().size());
        String w = warning(t, "memory_record.csv not read");
        assertTrue(w.contains("line 1 holds NUL bytes") && w.contains("peak allocated memory is not available"), w);
    }

    @Test
    void aLineOverOneMebibyteIsADamagedFile() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        Path csv = capture.resolve(OUT).resolve("memory_record.csv");
        String header = Files.readAllLines(csv, StandardCharsets.UTF_8).get(0);
        Files.writeString(csv, header + "\r\nPTA," + "9".repeat(2 << 20) + "\r\n", StandardCharsets.UTF_8);
        RankTrace t = read(capture);
        assertEquals(0, t.memory().size());
        assertTrue(warning(t, "memory_record.csv not read").contains("line 2 is longer than 1048576 bytes"),
                t.warnings().toString());
    }

    /** {@code --max-input-size} applies to the side file too (sparse, so the bound is met without writing it). */
    @Test
    void aMemoryRecordOverTheInputSizeLimitIsAWarning() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        nulFilled(capture.resolve(OUT).resolve("memory_record.csv"), 64L << 20);
        RankTrace t = read(capture, new InputLimits(32L << 20, 200)); // the timeline is 2.2 MB: within
        assertTrue(t.device().size() > 0);
        String w = warning(t, "memory_record.csv not read");
        assertTrue(w.contains("67108864 bytes, over the input size limit of 33554432"), w);
    }

    /** A row whose timestamp is no number is skipped and counted; the other rows give the samples. */
    @Test
    void aMemoryRowWithATextTimestampIsSkippedAndCounted() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        RankTrace original = read(capture);
        Path csv = capture.resolve(OUT).resolve("memory_record.csv");
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        int pta = -1;
        for (int i = 1; i < lines.size() && pta < 0; i++) {
            if (lines.get(i).startsWith("PTA,")) {
                pta = i;
            }
        }
        assertTrue(pta > 0, "the capture has PTA rows");
        lines.set(pta, lines.get(pta).replaceFirst("^PTA,[^,]*,", "PTA,n/a,"));
        Files.write(csv, lines, StandardCharsets.UTF_8);
        RankTrace t = read(capture);
        assertEquals(original.memory().size() - 1, t.memory().size());
        assertTrue(warning(t, "memory_record.csv rows without a readable Timestamp(us)").contains("1 row (first: Timestamp(us) \"n/a\""),
                t.warnings().toString());
    }

    @Test
    void aNulFilledProfilerInfoIsAWarningAndTheRankComesFromItsName() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        nulFilled(capture.resolve("profiler_info_0.json"), THREE_GB);
        RankTrace t = read(capture);
        assertEquals(0, t.rank());
        assertEquals(RankSource.FILE_NAME, t.rankSource());
        String w = warning(t, "profiler_info_0.json: not read");
        assertTrue(w.contains("a damaged file") && w.contains("using rank 0 from the file name"), w);
    }

    @Test
    void aSmallNulFilledProfilerInfoIsAWarningToo() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        nulFilled(capture.resolve("profiler_info_0.json"), 4096);
        RankTrace t = read(capture);
        assertEquals(RankSource.FILE_NAME, t.rankSource());
        assertTrue(warning(t, "profiler_info_0.json: not read").contains("using rank 0 from the file name"));
    }

    @Test
    void aNulFilledCommunicationJsonIsAWarning() throws Exception {
        Path capture = SharedExports.copy(CAPTURE, tmp);
        RankTrace original = read(capture);
        nulFilled(capture.resolve(OUT).resolve("communication.json"), THREE_GB);
        RankTrace t = read(capture);
        assertEquals(original.collectives().size(), t.collectives().size());
        assertTrue(warning(t, "communication.json not read").contains("not split by the profiler"), t.warnings().toString());
    }
}
