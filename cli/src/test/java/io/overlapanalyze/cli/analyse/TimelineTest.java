package io.overlapanalyze.cli.analyse;

import io.overlapanalyze.cli.CliRun;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.render.timeline.PixelRuns;
import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.timeline.TerminalTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timeline view (per-step device unions next to the report) and the terminal timeline: the
 * unions agree with the report's numbers, lines are scaled to the width, markers sit in the
 * right columns, and colours appear only when wanted.
 */
public class TimelineTest {
    private static final long MS = 1_000_000L;

    public static Path sample(String name) {
        return Path.of(System.getProperty("overlap.projectRoot", "..")).resolve("samples/" + name + ".pt.trace.json");
    }

    /** A report and the unions its pictures draw. */
    public record Analysed(io.overlapanalyze.report.AnalysisReport report, TimelineIndex timelines) {
    }

    public static Analysed analyse(String sample) {
        var result = io.overlapanalyze.pipeline.AnalysisPipeline.run(
                io.overlapanalyze.pipeline.PipelineInput.of(List.of(sample(sample))));
        return new Analysed(result.report(), TimelineIndex.of(result.inputs()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"seed-1ms, 7, 6, 7", "seed-4ms, 14, 6, 14"})
    void unionsMatchTheReportAndTheSeedTable(String sample, long endMs, long exposedFromMs, long exposedToMs) {
        Analysed a = analyse(sample);
        RankReport rank = a.report().ranks().get(0);
        StepReport step = rank.steps().get(0);
        StepTimeline t = a.timelines().of(rank, step);
        long t0 = step.deviceStartNs();
        assertEquals(endMs * MS, t.spanNs());
        assertEquals(IntervalSet.of(t0, t0 + 6 * MS), t.compute(), "three back-to-back 2 ms blocks");
        assertEquals(step.computeBusyNs(), t.compute().length());
        assertEquals(step.commBusyNs(), t.comm().length());
        assertEquals(step.exposedCommNs(), t.exposed().length());
        assertEquals(IntervalSet.of(t0 + exposedFromMs * MS, t0 + exposedToMs * MS), t.exposed(), "exposed = C − K");
        assertTrue(t.memory().isEmpty());
    }

    @Test
    void terminalLinesFitTheWidthAndMarkersSitInTheirColumns() {
        Analysed a = analyse("seed-4ms");
        RankReport rank = a.report().ranks().get(0);
        StepReport step = rank.steps().get(0);
        int columns = 72;
        String text = new TerminalTimeline(a.timelines(), columns, false).render(rank, step);
        List<String> bars = text.lines().filter(l -> l.contains("|")).toList();
        assertEquals(List.of("compute", "comm", "exposed", "markers"),
                bars.stream().map(l -> l.substring(0, l.indexOf('|')).trim()).toList(), text);
        for (String l : bars) {
            assertEquals(columns, l.length(), "scaled to the width: " + l);
        }
        int width = columns - 2 - 8 - 2;
        String markers = cells(bars.get(3));
        // 14 ms over `width` columns: first bucket ready (2 ms), last compute end (6), last reduce end (14).
        assertEquals('F', markers.charAt((int) (2 * (long) width / 14)), markers);
        assertEquals('C', markers.charAt((int) (6 * (long) width / 14)), markers);
        assertEquals('E', markers.charAt(width - 1), markers);
        assertTrue(markers.substring((int) (6 * (long) width / 14) + 1, width - 1).chars().allMatch(c -> c == '═'),
                "tail from C to E: " + markers);
        String compute = cells(bars.get(0));
        assertEquals('█', compute.charAt(0));
        assertEquals(' ', compute.charAt(width - 1), "no compute after 6 ms");
        String exposed = cells(bars.get(2));
        assertEquals(' ', exposed.charAt(0));
        assertEquals('▀', exposed.charAt(width - 1));
        assertTrue(text.contains("F,R +2.000 first bucket ready, reduce start"), text);
        assertTrue(text.contains("tail 8.000 ms (COMM_BOUND)"), text);
        assertFalse(text.contains("\u001b["), "no colour when not asked");
    }

    private static String cells(String bar) {
        return bar.substring(bar.indexOf('|') + 1, bar.lastIndexOf('|'));
    }

    @Test
    void coloursOnlyOnATerminalWithoutNoColor() {
        assertTrue(TerminalTimeline.colourWanted(true, Map.of()));
        assertFalse(TerminalTimeline.colourWanted(false, Map.of()));
        assertFalse(TerminalTimeline.colourWanted(true, Map.of("NO_COLOR", "")), "NO_COLOR set, even empty");
        assertFalse(TerminalTimeline.colourWanted(true, Map.of("NO_COLOR", "1")));
        Analysed a = analyse("seed-1ms");
        RankReport rank = a.report().ranks().get(0);
        String coloured = new TerminalTimeline(a.timelines(), 100, true).render(rank, rank.steps().get(0));
        assertTrue(coloured.contains("\u001b[31m"), "exposed comm in red");
        assertEquals(coloured.replaceAll("\u001b\\[[0-9;]*m", ""),
                new TerminalTimeline(a.timelines(), 100, false).render(rank, rank.steps().get(0)),
                "colour adds escapes only");
    }

    @Test
    void columnsComeFromTheEnvironment() {
        assertEquals(100, TerminalTimeline.columnsFrom(Map.of()));
        assertEquals(132, TerminalTimeline.columnsFrom(Map.of("COLUMNS", "132")));
        assertEquals(100, TerminalTimeline.columnsFrom(Map.of("COLUMNS", "wide")));
        assertEquals(40, TerminalTimeline.columnsFrom(Map.of("COLUMNS", "10")));
    }

    @Test
    void textReportShowsTimelinesForFewStepsAndObeysTheOption() {
        CliRun plain = CliRun.of(sample("seed-4ms").toString());
        assertEquals(0, plain.exitCode(), plain.err());
        assertTrue(plain.out().contains("ProfilerStep#1 timeline: 0 to 14.000 ms"), plain.out());
        assertFalse(plain.out().contains("\u001b["), "not a terminal: no colour");
        CliRun off = CliRun.of("--no-timeline", sample("seed-4ms").toString());
        assertFalse(off.out().contains(" timeline: "), off.out());
        CliRun json = CliRun.of("-f", "json", "--timeline", sample("seed-4ms").toString());
        assertFalse(json.out().contains(" timeline: "), "timelines belong to the text report only");
    }

    @TempDir
    Path tmp;

    private static long timelines(CliRun run) {
        return run.out().lines().filter(l -> l.contains(" timeline: 0 to ")).count();
    }

    /**
     * By default timelines follow the steps per rank, not ranks × steps: 4 ranks of 3 steps (12
     * steps in all, more than 10) get all 12 timelines; one rank of 11 steps gets none unless
     * {@code --timeline} forces them.
     */
    @Test
    void defaultTimelinesFollowStepsPerRankNotRanksTimesSteps() throws IOException {
        assertEquals(10, TerminalTimeline.AUTO_STEPS_PER_RANK);
        Path job = HtmlReportTest.bigJob(tmp.resolve("job"), 4, 3);
        CliRun many = CliRun.of("--detail", "all", job.toString());
        assertEquals(0, many.exitCode(), many.err());
        assertEquals(4 * 3, timelines(many), many.out());
        // By default a job details its worst rank only, and timelines come with the detail.
        assertEquals(3, timelines(CliRun.of(job.toString())));
        CliRun off = CliRun.of("--no-timeline", job.toString());
        assertEquals(0, timelines(off), "--no-timeline still wins");

        Path longRank = HtmlReportTest.bigJob(tmp.resolve("long"), 1, 11);
        CliRun eleven = CliRun.of(longRank.toString());
        assertEquals(0, eleven.exitCode(), eleven.err());
        assertEquals(0, timelines(eleven), "a rank of 11 steps: no timelines by default");
        assertEquals(11, timelines(CliRun.of("--timeline", longRank.toString())), "--timeline forces them");

        Path tenEach = HtmlReportTest.bigJob(tmp.resolve("ten"), 2, 10);
        assertEquals(2 * 10, timelines(CliRun.of("--detail", "all", tenEach.toString())), "10 steps per rank is still few");
    }

    @Test
    void manyKernelsCostAtMostAboutOneRunPerTwoPixels() {
        IntervalSet.Builder b = IntervalSet.builder();
        for (long i = 0; i < 100_000; i++) {
            b.add(i * 10, i * 10 + 5); // 100,000 kernels with gaps
        }
        IntervalSet set = b.build();
        PixelRuns runs = PixelRuns.of(set, 0, 1_000_000, 1000, 0.5);
        assertTrue(runs.size() <= 1, "gaps far below a pixel close up: " + runs.size());
        PixelRuns sparse = PixelRuns.of(IntervalSet.of(100, 200).union(IntervalSet.of(600, 700)), 0, 1000, 1000, 0.5);
        assertEquals(2, sparse.size());
        assertEquals(100.0, sparse.start(0), 1e-9);
        assertEquals(700.0, sparse.end(1), 1e-9);
    }
}
