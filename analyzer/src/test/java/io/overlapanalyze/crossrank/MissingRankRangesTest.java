package io.overlapanalyze.crossrank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.RankRange;
import io.overlapanalyze.synth.BuiltinScenarios;
import io.overlapanalyze.synth.Job;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 item 3: missing ranks are ranges, never one entry per rank of the world: a job of
 * 2^20 ranks with two traces is two ranges (before, a list of a million ranks; with a world of 2e9,
 * 11.6 GB); a rank id at or above {@link RankTrace#MAX_WORLD_SIZE} is set aside as out of range.
 */
class MissingRankRangesTest {
    @TempDir
    Path dir;

    private List<RankInput> twoRanks(int second, int world) throws Exception {
        List<RankInput> read = JobFixture.read(Job.healthy("j", 2, BuiltinScenarios.get("seed-1ms").withSteps(2)), dir);
        List<RankInput> out = new ArrayList<>();
        out.add(new RankInput(read.get(0).trace().withRank(0, RankSource.TRACE).withWorldSize(world), read.get(0).report()));
        out.add(new RankInput(read.get(1).trace().withRank(second, RankSource.TRACE).withWorldSize(world),
                read.get(1).report()));
        return out;
    }

    @Test
    void aLargeWorldWithTwoTracesIsTwoRanges() throws Exception {
        List<RankInput> in = twoRanks(5, RankTrace.MAX_WORLD_SIZE);
        CrossRankReport x = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> CrossRankAnalyzer.analyze(in, List.of()));
        assertEquals(List.of(new RankRange(1, 4), new RankRange(6, RankTrace.MAX_WORLD_SIZE - 1)), x.missingRankRanges());
        assertNull(x.missingRanks(), "more than " + CrossRankReport.MAX_LISTED_MISSING + " missing: not listed one by one");
        assertTrue(x.notes().stream().anyMatch(n -> n.contains("no trace for ranks 1-4, 6-1048575")), x.notes().toString());
    }

    @Test
    void aSmallWorldListsItsMissingRanksToo() throws Exception {
        CrossRankReport x = CrossRankAnalyzer.analyze(twoRanks(3, 8), List.of());
        assertEquals(List.of(new RankRange(1, 2), new RankRange(4, 7)), x.missingRankRanges());
        assertEquals(List.of(1, 2, 4, 5, 6, 7), x.missingRanks());
    }

    @Test
    void anImplausibleRankIdIsSetAside() throws Exception {
        CrossRankReport x = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> CrossRankAnalyzer.analyze(twoRanks(2_000_000_000, -1), List.of()));
        assertEquals(List.of(0), x.ranks());
        assertEquals(InputProblem.RANK_OUT_OF_RANGE, x.inputProblems().get(0).kind());
        assertTrue(x.inputProblems().get(0).message().contains("no plausible rank id"), x.inputProblems().toString());
        assertEquals(List.of(), x.missingRankRanges());
    }
}
