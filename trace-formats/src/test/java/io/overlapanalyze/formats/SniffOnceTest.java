package io.overlapanalyze.formats;

import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.Sniffer;
import io.overlapanalyze.model.RankTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Bytes once (issue 30): the front door opens every input of a job to sniff it once, for the walk's
 * not-a-trace check and the read together, and hands what it sniffed to the reader. Counted through
 * the front door's {@link Sniffer} on a job directory holding a 4-rank Kineto job (the sample
 * {@code job-healthy-4rank}), a job's {@code config.json} (no trace: skipped) and an Ascend capture
 * directory (read whole: the directory is the input, its files are the reader's).
 */
class SniffOnceTest {
    private static final Path FOUR_RANKS = Path.of("..", "samples", "job-healthy-4rank");
    private static final Path ASCEND_TIMELINE = Path.of("src/test/resources/ascend/msprof-analyze-advisor-2024/trace_view.json");

    @TempDir
    Path tmp;

    @Test
    void everyInputOfAJobIsSniffedOnceForTheWalkAndTheReadTogether() throws Exception {
        Path job = tmp.resolve("job");
        Files.createDirectories(job);
        for (int r = 0; r < 4; r++) {
            String name = "rank-" + r + ".pt.trace.json";
            Files.copy(FOUR_RANKS.resolve(name), job.resolve(name));
        }
        Files.writeString(job.resolve("config.json"), "{\"world_size\": 4, \"steps\": 3}\n", StandardCharsets.UTF_8);
        Path capture = job.resolve("node0_ascend_pt");
        Files.createDirectories(capture.resolve("ASCEND_PROFILER_OUTPUT"));
        Files.copy(ASCEND_TIMELINE, capture.resolve("ASCEND_PROFILER_OUTPUT").resolve("trace_view.json"));

        Map<Path, Integer> sniffs = new ConcurrentHashMap<>();
        Sniffer counting = (input, limits) -> {
            sniffs.merge(input.getFileName(), 1, Integer::sum);
            return SniffedInput.of(input, limits);
        };
        TraceFormats formats = TraceFormats.standard().withSniffer(counting);
        TraceFormats.Expanded expanded = formats.expand(List.of(job), null, TraceFormats.Keep.NOTHING, InputLimits.DEFAULT);
        assertEquals(List.of(job.resolve("config.json") + ": not a trace (a JSON object without \"traceEvents\"), skipped"),
                expanded.skipped());
        JobReader.Read<RankTrace> read = formats.readInParallel(expanded, ReadOptions.DEFAULT, new RankNaming(null),
                t -> t, null);
        assertEquals(List.of(), read.unreadable());
        assertEquals(5, read.results().size(), "4 Kineto ranks and the Ascend capture's one");

        Map<String, Integer> expected = new TreeMap<>();
        for (int r = 0; r < 4; r++) {
            expected.put("rank-" + r + ".pt.trace.json", 1);
        }
        expected.put("config.json", 1);
        expected.put("node0_ascend_pt", 1); // a directory: handed on as one, not opened
        Map<String, Integer> counted = new TreeMap<>();
        sniffs.forEach((p, n) -> counted.put(p.toString(), n));
        assertEquals(expected, counted);
    }

    /**
     * A caller that walks elsewhere (a Spark task, one walked file each) checks the file and reads it
     * with one sniff: the check hands its sniff to the read.
     */
    @Test
    void aFileWalkedElsewhereIsSniffedOnceForTheCheckAndTheRead() throws Exception {
        Path rank = tmp.resolve("rank-0.pt.trace.json");
        Files.copy(FOUR_RANKS.resolve("rank-0.pt.trace.json"), rank);
        Path config = tmp.resolve("config.json");
        Files.writeString(config, "{\"world_size\": 4}\n", StandardCharsets.UTF_8);
        Map<Path, Integer> sniffs = new ConcurrentHashMap<>();
        TraceFormats formats = TraceFormats.standard().withSniffer((input, limits) -> {
            sniffs.merge(input.getFileName(), 1, Integer::sum);
            return SniffedInput.of(input, limits);
        });

        TraceFormats.Walked check = formats.checkWalked(rank, InputLimits.DEFAULT);
        assertEquals(null, check.notATrace());
        List<RankTrace> read = JobReader.readOne(formats, rank, check.sniffed(), rank, ReadOptions.DEFAULT,
                new RankNaming(null), t -> t);
        assertEquals(1, read.size());
        assertEquals("not a trace (a JSON object without \"traceEvents\")",
                formats.checkWalked(config, InputLimits.DEFAULT).notATrace());
        assertEquals(Map.of(rank.getFileName(), 1, config.getFileName(), 1), sniffs);
    }

    /**
     * A caller that tells files apart itself (diff and gate) is shown every file with what was sniffed
     * of it, the files the user named too; the read then takes those sniffs: each file is opened once
     * for the caller's look, the walk's check and the read together.
     */
    @Test
    void aKeepThatLooksAtNamedFilesIsShownTheSniffTheReadTakes() throws Exception {
        Path job = tmp.resolve("job3");
        Files.createDirectories(job);
        Files.copy(FOUR_RANKS.resolve("rank-0.pt.trace.json"), job.resolve("rank-0.pt.trace.json"));
        Path named = tmp.resolve("rank-1.pt.trace.json");
        Files.copy(FOUR_RANKS.resolve("rank-1.pt.trace.json"), named);
        Files.writeString(job.resolve("kept.json"), "{\"mine\": true}\n", StandardCharsets.UTF_8);
        Map<Path, Integer> sniffs = new ConcurrentHashMap<>();
        TraceFormats formats = TraceFormats.standard().withSniffer((input, limits) -> {
            sniffs.merge(input.getFileName(), 1, Integer::sum);
            return SniffedInput.of(input, limits);
        });
        Map<String, Boolean> shown = new TreeMap<>();
        TraceFormats.Keep keep = new TraceFormats.Keep() {
            @Override
            public boolean keep(Path file, SniffedInput sniffed) {
                shown.put(file.getFileName().toString(), sniffed != null && sniffed.path().equals(file));
                return file.getFileName().toString().equals("kept.json");
            }

            @Override
            public boolean looksAtNamedFiles() {
                return true;
            }
        };

        TraceFormats.Expanded expanded = formats.expand(List.of(named, job), null, keep, InputLimits.DEFAULT);
        assertEquals(List.of(named, job.resolve("kept.json"), job.resolve("rank-0.pt.trace.json")), expanded.files());
        assertEquals(Map.of("kept.json", true, "rank-0.pt.trace.json", true, "rank-1.pt.trace.json", true), shown);
        assertEquals(java.util.Set.of(named, job.resolve("rank-0.pt.trace.json")), expanded.sniffed().keySet(),
                "the traces' sniffs are kept for the read; the kept file is the caller's to read");
        JobReader.Read<RankTrace> read = formats.readInParallel(new TraceFormats.Expanded(List.of(named,
                        job.resolve("rank-0.pt.trace.json")), List.of(), List.of(), expanded.sniffed(), InputLimits.DEFAULT),
                ReadOptions.DEFAULT, new RankNaming(null), t -> t, null);
        assertEquals(2, read.results().size());
        assertEquals(Map.of(named.getFileName(), 1, Path.of("rank-0.pt.trace.json"), 1, Path.of("kept.json"), 1), sniffs);
    }

    /** A read under other limits than the walk's does not take the walk's sniff: the limits decide what is refused. */
    @Test
    void aReadUnderOtherLimitsSniffsAgain() throws Exception {
        Path job = tmp.resolve("job2");
        Files.createDirectories(job);
        Files.copy(FOUR_RANKS.resolve("rank-0.pt.trace.json"), job.resolve("rank-0.pt.trace.json"));
        TraceFormats.Expanded expanded = TraceFormats.standard().expand(List.of(job), null, TraceFormats.Keep.NOTHING, InputLimits.DEFAULT);
        assertEquals(1, expanded.sniffsFor(InputLimits.DEFAULT).size());
        assertEquals(Map.of(), expanded.sniffsFor(new InputLimits(1000, 200)));
    }
}
