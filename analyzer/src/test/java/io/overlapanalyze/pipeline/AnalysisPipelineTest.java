package io.overlapanalyze.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import io.overlapanalyze.synth.JobWriter;
import io.overlapanalyze.synth.KinetoScenarioWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline as a library, without any command: what a Spark job or another tool would call. */
class AnalysisPipelineTest {
    @TempDir
    Path dir;

    @Test
    void aJobIsReadAnalysedAndComparedAcrossRanks() throws IOException {
        Path job = dir.resolve("job");
        JobWriter.write(Job.healthy("j", 2, BuiltinScenarios.get("seed-1ms").withSteps(2)), job, false);
        Files.writeString(job.resolve("config.json"), "{\"world_size\": 2}");
        PipelineResult r = AnalysisPipeline.run(PipelineInput.of(List.of(job)));
        assertEquals(2, r.report().ranks().size());
        assertEquals(0, r.report().ranks().get(0).rank());
        assertEquals(1, r.report().ranks().get(1).rank());
        assertEquals(2, r.inputs().size(), "each rank keeps its trace next to its report");
        assertTrue(r.report().crossRank() != null, "two ranks: analysed across ranks");
        assertEquals(List.of(), r.unreadable());
        assertEquals(1, r.skipped().size(), r.skipped().toString());
        assertTrue(r.skipped().get(0).contains(job.resolve("config.json").toString()), r.skipped().toString());
        assertEquals(List.of(), r.report().crossRank().inputProblems(), "a skipped file is no input of the job");

        PipelineResult alone = AnalysisPipeline.run(PipelineInput.of(List.of(job)).withCrossRank(false));
        assertNull(alone.report().crossRank());
        // Across ranks, each step's exposed communication (seed-1ms: the last 1 ms bucket) gets the
        // cross-rank transfer/waiting split (metrics.md §12): nobody is late, so all of it is transfer.
        // Nothing else of a rank's report changes.
        for (RankReport rank : r.report().ranks()) {
            for (StepReport s : rank.steps()) {
                assertEquals(new CommSplit(0L, 1_000_000L, CommSplit.CROSS_RANK), s.commSplit(), s.name());
            }
        }
        assertEquals(withoutSplits(r.report().ranks()), withoutSplits(alone.report().ranks()));
    }

    private static List<RankReport> withoutSplits(List<RankReport> ranks) {
        return ranks.stream().map(rank -> rank.withSteps(rank.steps().stream()
                .map(s -> s.withCommSplit(CommSplit.unknown())).toList())).toList();
    }

    @Test
    void aFileNamedByTheUserIsReadEvenWhenItIsNoTrace() throws IOException {
        Path config = dir.resolve("config.json");
        Files.writeString(config, "{\"lr\": 0.1}");
        PipelineInputException e = assertThrows(PipelineInputException.class,
                () -> AnalysisPipeline.run(PipelineInput.of(List.of(config))));
        assertTrue(e.getMessage().startsWith(config.toString()), e.getMessage());
    }

    @Test
    void anUnreadableRankIsCollectedNotThrown() throws IOException {
        Path good = dir.resolve("rank-0.pt.trace.json");
        KinetoScenarioWriter.write(BuiltinScenarios.get("seed-1ms").withSteps(2), good);
        Path bad = dir.resolve("rank-1.pt.trace.json");
        Files.writeString(bad, "not json at all");
        PipelineResult r = AnalysisPipeline.run(PipelineInput.of(List.of(dir)));
        assertEquals(1, r.report().ranks().size());
        assertEquals(1, r.unreadable().size());
        assertEquals(bad.toString(), r.unreadable().get(0).file());
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains(bad.toString())), r.warnings().toString());
    }
}
