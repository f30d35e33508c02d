package io.overlapanalyze.options;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.formats.input.Sniffer;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineInputException;
import io.overlapanalyze.reportfile.RunLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes once in diff and gate too (issue 30): each side's files are told apart (saved summary,
 * another result of this tool, trace) from what the front door sniffed, so a trace is opened once
 * for that, the walk's not-a-trace check and the read's choice of reader. Each side goes through
 * what the commands call ({@link TraceInputs#expand(PipelineInput, TraceFormats.Keep)} with a
 * {@link RunLoader.Kinds}, then {@link RunLoader#load}); every open that tells a file apart (a sniff
 * of its head, or reading it on from the start) is counted through the front door's {@link Sniffer}.
 * The trace files are the sample {@code job-healthy-4rank}; the summary is the sample
 * {@code bucket-small.summary.json}, padded past the head with trailing blanks so that only its first
 * key can decide from the head.
 */
class CompareSidesSniffOnceTest {
    private static final Path FOUR_RANKS = Path.of("..", "samples", "job-healthy-4rank");
    private static final Path SUMMARY = Path.of("..", "samples", "bucket-small.summary.json");

    @TempDir
    Path tmp;

    @Command(name = "compare")
    static final class Compare {
        @Mixin TraceInputs inputs;
    }

    /** The sniffs and the readings-on, by file name, through one front door. */
    private static final class Counting implements Sniffer {
        final Map<String, Integer> sniffs = new ConcurrentHashMap<>();
        final Map<String, Integer> readOns = new ConcurrentHashMap<>();

        @Override
        public SniffedInput sniff(Path input, InputLimits limits) throws IOException {
            sniffs.merge(input.getFileName().toString(), 1, Integer::sum);
            return SniffedInput.of(input, limits);
        }

        @Override
        public InputStream readOn(Path input, InputLimits limits) throws IOException {
            readOns.merge(input.getFileName().toString(), 1, Integer::sum);
            return Sniffer.super.readOn(input, limits);
        }
    }

    /** One side as diff and gate load it: expanded once with its kinds, then loaded. */
    private static RunLoader.Loaded load(TraceFormats formats, List<Path> paths, boolean crossRank) {
        Compare c = new Compare();
        new CommandLine(c).parseArgs();
        PipelineInput in = c.inputs.pipeline(List.of()).withFormats(formats).withPaths(paths);
        RunLoader.Kinds kinds = new RunLoader.Kinds(in.formats());
        TraceInputs.Expanded expanded = c.inputs.expand(in, kinds);
        return RunLoader.load(paths.get(0).toString(), expanded.pipeline(), expanded.files(), kinds, crossRank);
    }

    private Path traceJob() throws IOException {
        Path job = Files.createDirectories(tmp.resolve("traces"));
        for (int r = 0; r < 4; r++) {
            String name = "rank-" + r + ".pt.trace.json";
            Files.copy(FOUR_RANKS.resolve(name), job.resolve(name));
        }
        Files.writeString(job.resolve("config.json"), "{\"world_size\": 4, \"steps\": 3}\n", StandardCharsets.UTF_8);
        return job;
    }

    /** The sample summary followed by blanks: more than the sniffed head, its first key {@code kind}. */
    private Path paddedSummary(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path s = dir.resolve("baseline.summary.json");
        Files.writeString(s, Files.readString(SUMMARY) + " ".repeat(100_000), StandardCharsets.UTF_8);
        assertTrue(Files.size(s) > 64 * 1024);
        return s;
    }

    private static Map<String, Integer> each(int n, String... names) {
        Map<String, Integer> m = new TreeMap<>();
        for (String name : names) {
            m.put(name, n);
        }
        return m;
    }

    private static final String[] RANKS = {"rank-0.pt.trace.json", "rank-1.pt.trace.json", "rank-2.pt.trace.json",
            "rank-3.pt.trace.json"};

    @Test
    void diffOfATraceDirectoryAndASummaryDirectoryOpensEachFileOnceToTellIt() throws Exception {
        Path traces = traceJob();
        Path summaries = paddedSummary(tmp.resolve("summaries")).getParent();
        Counting counting = new Counting();
        TraceFormats formats = TraceFormats.standard().withSniffer(counting);

        RunLoader.Loaded a = load(formats, List.of(traces), false);
        RunLoader.Loaded b = load(formats, List.of(summaries), false);

        assertEquals(4, a.run().ranks().size());
        assertEquals("traces", a.run().origin());
        assertEquals(List.of(traces.resolve("config.json")
                + ": not a trace (a JSON object without \"traceEvents\"), skipped"), a.skipped());
        assertEquals(1, b.run().ranks().size());
        assertTrue(b.run().origin().startsWith("summary by "), b.run().origin());
        Map<String, Integer> expected = each(1, RANKS);
        expected.put("config.json", 1);
        expected.put("baseline.summary.json", 1); // its kind, first, decides; reading it is the summary's read
        assertEquals(expected, new TreeMap<>(counting.sniffs));
        assertEquals(Map.of(), counting.readOns, "no head left a file undecided");
    }

    @Test
    void gateOfNamedTracesAgainstANamedSummaryOpensEachFileOnceToTellIt() throws Exception {
        Path traces = traceJob();
        Path summary = paddedSummary(tmp.resolve("baseline"));
        Counting counting = new Counting();
        TraceFormats formats = TraceFormats.standard().withSniffer(counting);
        List<Path> current = java.util.Arrays.stream(RANKS).map(traces::resolve).toList();

        RunLoader.Loaded base = load(formats, List.of(summary), false);
        RunLoader.Loaded run = load(formats, current, true);

        assertEquals(1, base.run().ranks().size());
        assertEquals(4, run.run().ranks().size());
        Map<String, Integer> expected = each(1, RANKS);
        expected.put("baseline.summary.json", 1);
        assertEquals(expected, new TreeMap<>(counting.sniffs), "named files: told apart and read on one sniff each");
        assertEquals(Map.of(), counting.readOns);
    }

    /**
     * The one file opened twice to be told apart: a JSON object whose deciding keys all lie past the head
     * (here a plain {@code -f json} report, without a kind, whose {@code ranks} start after 64 KiB). It is
     * read on from its start, and refused as before: it is a report, not a summary.
     */
    @Test
    void aReportWhoseRanksLiePastTheHeadIsReadOnAndRefusedAsBefore() throws Exception {
        Path report = tmp.resolve("report.json");
        Files.writeString(report, "{\"schemaVersion\": 1, \"tool\": \"overlap-analyze 0.1.0\", \"note\": \""
                + "x".repeat(70_000) + "\", \"ranks\": []}\n", StandardCharsets.UTF_8);
        Counting counting = new Counting();
        TraceFormats formats = TraceFormats.standard().withSniffer(counting);

        PipelineInputException e = assertThrows(PipelineInputException.class,
                () -> load(formats, List.of(report), false));

        assertEquals(report + ": not a summary: \"kind\" is missing (a baseline must say what it is: write it with "
                + "'overlap-analyze summary')", e.getMessage());
        assertEquals(Map.of("report.json", 1), counting.sniffs);
        assertEquals(Map.of("report.json", 1), counting.readOns);
    }
}
