package io.overlapanalyze.render.html;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A page drawn from timelines computed where the traces were read (a distributed run) is the page
 * drawn with the traces at hand: the steps sent cover what the page draws, and the drawing sizes
 * make the page's limits choose the same steps.
 */
class RemoteTimelinesTest {
    @TempDir
    Path tmp;

    private PipelineResult job(String name, int ranks, int steps) throws IOException {
        String json = "{\"name\": \"" + name + "\", \"ranks\": " + ranks + ", \"scenario\": \"seed-1ms\", \"steps\": "
                + steps + ", \"slowRank\": " + Math.min(3, ranks - 1) + ", \"delayUs\": 300}";
        Path dir = Files.createDirectories(tmp.resolve(name));
        JobWriter.write(Job.parse(json, name + ".job.json"), dir, false);
        return AnalysisPipeline.run(PipelineInput.of(List.of(dir)));
    }

    private static TimelineIndex remote(PipelineResult result, Function<RankReport, Set<String>> send) {
        TimelineIndex index = new TimelineIndex();
        for (RankInput in : result.inputs()) {
            index.add(in.report(), RemoteTimelines.of(in.trace(), in.report(), send.apply(in.report())));
        }
        return index;
    }

    private static Set<String> names(List<StepReport> steps) {
        Set<String> names = new TreeSet<>();
        steps.forEach(s -> names.add(s.name()));
        return names;
    }

    @Test
    void everyStepAPageOfFortyRanksDrawsIsOneItsRankSends() throws IOException {
        PipelineResult result = job("forty", 40, 20);
        AnalysisReport report = result.report();
        TimelinePlan plan = TimelinePlan.of(report, TimelineIndex.of(result.inputs()), TimelinePlan.MAX_TIMELINES,
                TimelinePlan.MAX_BYTES);
        assertEquals(40 * 20, plan.candidates(), "every step of seed-1ms has device work");
        assertEquals(300, plan.drawn(), "the count limit bites: 300 of 800");
        for (RankReport r : report.ranks()) {
            Set<String> sent = RemoteTimelines.stepsThatMayBeDrawn(r, 40);
            for (StepReport s : plan.drawnOf(r)) {
                assertTrue(sent.contains(s.name()), "rank " + r.rank() + " draws " + s.name() + ", not in " + sent);
            }
        }
        TimelineIndex remote = remote(result, r -> RemoteTimelines.stepsThatMayBeDrawn(r, 40));
        assertTrue(RemoteTimelines.missing(report, remote).isEmpty());
        StringWriter local = new StringWriter();
        new HtmlRenderer(TimelineIndex.of(result.inputs())).render(report, local);
        StringWriter fromRemote = new StringWriter();
        new HtmlRenderer(remote).render(report, fromRemote);
        assertEquals(local.toString(), fromRemote.toString());
    }

    @Test
    void whereTheSetIsSmallerThanTheRankItStillHoldsEveryDrawnStep() throws IOException {
        // 10 ranks of 40 steps, at most 40 timelines: 10 worst and 10 median steps come first, then
        // rank 0's other steps fill the last 20 places. Each rank sends its worst, its median and
        // its first 40 − 10 = 30 other steps: 32 of 40.
        PipelineResult result = job("ten", 10, 40);
        AnalysisReport report = result.report();
        TimelinePlan plan = TimelinePlan.of(report, TimelineIndex.of(result.inputs()), 40, TimelinePlan.MAX_BYTES);
        assertEquals(40, plan.drawn());
        int drawnOfRank0 = plan.drawnOf(report.ranks().get(0)).size();
        assertTrue(drawnOfRank0 >= 20, "rank 0 draws its featured steps and 20 more: " + drawnOfRank0);
        for (RankReport r : report.ranks()) {
            Set<String> sent = TimelinePlan.stepsThatMayBeDrawn(r, 10, 40);
            assertEquals(32, sent.size(), "rank " + r.rank());
            for (StepReport s : plan.drawnOf(r)) {
                assertTrue(sent.contains(s.name()), "rank " + r.rank() + " draws " + s.name() + ", not in " + sent);
            }
        }
    }

    @Test
    void withNoUnionsSentTheMissingStepsAreExactlyTheDrawnOnesAlsoUnderTheByteLimit() throws IOException {
        PipelineResult result = job("bytes", 6, 8);
        AnalysisReport report = result.report();
        TimelineIndex local = TimelineIndex.of(result.inputs());
        TimelineIndex none = remote(result, r -> Set.of());
        for (long maxBytes : new long[] {TimelinePlan.MAX_BYTES, 60_000, 25_000}) {
            TimelinePlan drawn = TimelinePlan.of(report, local, 300, maxBytes);
            Map<RankReport, Set<String>> missing = TimelinePlan.of(report, none, 300, maxBytes).missing();
            int total = 0;
            for (RankReport r : report.ranks()) {
                Set<String> want = names(drawn.drawnOf(r));
                total += want.size();
                assertEquals(want, missing.containsKey(r) ? new TreeSet<>(missing.get(r)) : Set.of(),
                        "rank " + r.rank() + " under " + maxBytes + " bytes");
            }
            if (maxBytes == TimelinePlan.MAX_BYTES) {
                assertEquals(48, total, "no limit bites on 48 steps");
            } else {
                assertTrue(total < 48, "the byte limit bites at " + maxBytes + ": " + total);
            }
        }
    }

    @Test
    void aPageWithAStepNotSentIsRefusedRatherThanDrawnWithout() throws IOException {
        PipelineResult result = job("refused", 2, 3);
        TimelineIndex none = remote(result, r -> Set.of());
        StringWriter out = new StringWriter();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> new HtmlRenderer(none).render(result.report(), out));
        PrecomputedTimelines one = RemoteTimelines.of(result.inputs().get(0).trace(), result.inputs().get(0).report(),
                Set.of());
        assertEquals(3, one.drawnChars().size(), "every step's size is sent, with no unions");
        assertTrue(one.unions().isEmpty());
    }
}
