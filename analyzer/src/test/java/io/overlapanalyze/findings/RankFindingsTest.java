package io.overlapanalyze.findings;

import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.Straggler;
import io.overlapanalyze.report.TailKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static io.overlapanalyze.findings.Reports.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RankFindingsTest {
    private static List<Finding> judge(RankReport rank, CrossRankReport cross, List<RankReport> all) {
        Findings f = Findings.of(cross, Findings.medians(all), all.size(), UnaryOperator.identity());
        return f.revise(rank).findings();
    }

    private static List<Finding> alone(RankReport rank) {
        return judge(rank, null, List.of(rank));
    }

    private static List<String> kinds(List<Finding> findings) {
        return findings.stream().map(Finding::kind).toList();
    }

    @Test
    void everyCauseGetsItsOwnPartOfTheStepRankedBySaving() {
        // Reports.typical: host 60, launched 8, tail 3 (of exposed 10), waiting 5, the 2 ms left
        // transfer, copies 2: no nanosecond is handed out twice (2 ms of the profiler's 5 ms
        // transfer went to the tail).
        List<Finding> f = alone(Reports.rank(0, null, List.of(Reports.typical("s1"))));
        assertEquals(List.of("HOST_BOUND", "DEPENDENCY_IDLE", "WAITING", "TAIL", "EXPOSED_TRANSFER", "EXPOSED_COPY"),
                kinds(f));
        assertEquals(List.of(60 * MS, 8 * MS, 5 * MS, 3 * MS, 2 * MS, 2 * MS),
                f.stream().map(Finding::savingNs).toList());
        assertEquals(0.60, f.get(0).shareOfStep(), 1e-12);
        long total = f.stream().mapToLong(Finding::savingNs).sum();
        assertTrue(total <= 100 * MS, "savings never add up to more than the step: " + total);
        assertTrue(f.get(0).evidence().contains("60.000 ms"), f.get(0).evidence());
        assertTrue(f.get(0).evidence().contains("## forward ## 45.000 ms"), f.get(0).evidence());
        assertTrue(f.get(0).action().contains("no bucket") || f.get(0).action().contains("bucket sizes"),
                "host-bound advice says buckets cannot help: " + f.get(0).action());
        assertEquals(List.of(0), f.get(0).ranks());
    }

    @Test
    void savingsAreMediansOverCompleteStepsAndSmallCausesAreLeftOut() {
        Reports.Step a = Reports.typical("s1");
        // A step whose host-bound idle is 20 ms and one with 40 ms: the median of 20, 40, 60 is 40.
        Reports.Step b = new Reports.Step("s2", 100 * MS, a.breakdown(), new IdleBreakdown(20 * MS, 48 * MS, 0,
                List.of()), 10 * MS, 3 * MS, TailKind.LAST_BUCKET, null, a.split());
        Reports.Step c = new Reports.Step("s3", 100 * MS, a.breakdown(), new IdleBreakdown(40 * MS, 28 * MS, 0,
                List.of()), 10 * MS, 3 * MS, TailKind.LAST_BUCKET, null, a.split());
        List<Finding> f = alone(Reports.rank(0, null, List.of(a, b, c)));
        assertEquals(40 * MS, f.stream().filter(x -> x.kind().equals("HOST_BOUND")).findFirst().orElseThrow()
                .savingNs());
        // Under 1% of the step: 0.5 ms of copies is no finding.
        Reports.Step small = new Reports.Step("s1", 100 * MS, new StepBreakdown(20 * MS, 0, 10 * MS, MS / 2,
                69 * MS + MS / 2), a.idle(), 10 * MS, 3 * MS, TailKind.LAST_BUCKET, null, a.split());
        assertFalse(kinds(alone(Reports.rank(0, null, List.of(small)))).contains("EXPOSED_COPY"));
    }

    @Test
    void withoutASplitExposedCommunicationIsNotCalledTransferAndTheTailSaysSo() {
        Reports.Step s = new Reports.Step("s1", 100 * MS, new StepBreakdown(60 * MS, 0, 30 * MS, 0, 10 * MS),
                new IdleBreakdown(0, 10 * MS, 0, List.of()), 30 * MS, 20 * MS, TailKind.COMM_BOUND, null,
                CommSplit.unknown());
        List<Finding> f = alone(Reports.rank(0, null, List.of(s)));
        assertEquals(List.of("TAIL", "DEPENDENCY_IDLE", "EXPOSED_COMM"), kinds(f));
        assertFalse(kinds(f).contains("EXPOSED_TRANSFER"));
        assertTrue(f.get(0).action().contains("not known"), "an unverified bandwidth claim says so: "
                + f.get(0).action());
        assertTrue(f.get(2).evidence().contains("not available"), f.get(2).evidence());
    }

    @Test
    void aWaitTailIsWaitingNeverASmallerBucket() {
        Reports.Step s = new Reports.Step("s1", 100 * MS, new StepBreakdown(80 * MS, 0, 20 * MS, 0, 0),
                new IdleBreakdown(0, 0, 0, List.of()), 20 * MS, 15 * MS, TailKind.WAIT, null,
                new CommSplit(18 * MS, 2 * MS, CommSplit.PROFILER));
        List<Finding> f = alone(Reports.rank(0, 8, List.of(s)));
        assertEquals(List.of("WAITING", "EXPOSED_TRANSFER"), kinds(f));
        assertEquals(18 * MS, f.get(0).savingNs());
        assertTrue(f.get(0).evidence().contains("not in the input (1 of 8 ranks read)"), f.get(0).evidence());
        assertFalse(f.stream().anyMatch(x -> x.action().contains("last bucket")), "no last-bucket advice for waiting");
    }

    @Test
    void theStragglerIsNamedWhereOthersWaitAndItsOwnFindingSaysWhyItIsLate() {
        Reports.Step waiting = new Reports.Step("s1", 100 * MS, new StepBreakdown(80 * MS, 0, 10 * MS, 0, 10 * MS),
                new IdleBreakdown(2 * MS, 8 * MS, 0, List.of()), 10 * MS, 0L, TailKind.NONE, null,
                new CommSplit(8 * MS, 2 * MS, CommSplit.CROSS_RANK));
        // Rank 5 waits for nobody, and its host kept its device idle 9 ms against the others' 2 ms.
        Reports.Step late = new Reports.Step("s1", 100 * MS, new StepBreakdown(80 * MS, 0, 2 * MS, 0, 18 * MS),
                new IdleBreakdown(9 * MS, 9 * MS, 0, List.of()), 2 * MS, 0L, TailKind.NONE, null,
                new CommSplit(0L, 2 * MS, CommSplit.CROSS_RANK));
        RankReport r0 = Reports.rank(0, 3, List.of(waiting));
        RankReport r1 = Reports.rank(1, 3, List.of(waiting));
        RankReport r5 = Reports.rank(5, 3, List.of(late));
        // Rank 5 was last at 3 of 4 timed collectives; in s1 rank 0 waited 7 ms for it and rank 1 9 ms.
        CrossRankReport cross = Reports.crossRank(List.of(0, 1, 5),
                List.of(new Straggler(5, 0, 3, 24 * MS, 2 * MS, 0, 2 * MS, 0.0),
                        new Straggler(0, 7 * MS, 1, 1 * MS, 10 * MS, 8 * MS, 2 * MS, 0.8)), 4,
                List.of(Reports.collective("s1", 0, 5, Map.of(0, 3 * MS, 1, 4 * MS, 5, 0L)),
                        Reports.collective("s1", 1, 5, Map.of(0, 4 * MS, 1, 5 * MS, 5, 0L))), List.of());
        List<RankReport> all = List.of(r0, r1, r5);
        List<Finding> f0 = judge(r0, cross, all);
        Finding wait0 = f0.stream().filter(x -> x.kind().equals("WAITING")).findFirst().orElseThrow();
        assertTrue(wait0.evidence().contains("for rank 5"), wait0.evidence());
        assertTrue(wait0.action().contains("rank 5"), wait0.action());
        List<Finding> f5 = judge(r5, cross, all);
        Finding straggler = f5.stream().filter(x -> x.kind().equals("STRAGGLER")).findFirst().orElseThrow();
        assertEquals(8 * MS, straggler.savingNs(), "median of the others' waits in s1: 7 and 9 ms");
        assertTrue(straggler.evidence().contains("3 of 4"), straggler.evidence());
        assertTrue(straggler.evidence().contains("waited for its host 9.000 ms per step against 2.000 ms"),
                straggler.evidence());
        assertEquals(List.of(5), straggler.ranks());
        assertFalse(kinds(f0).contains("STRAGGLER"), "only the late rank carries the straggler finding");
    }

    @Test
    void noRankIsCalledLateWhenTheStragglerTableShowsNoOneLateAtMostCollectives() {
        Reports.Step waiting = new Reports.Step("s1", 100 * MS, new StepBreakdown(80 * MS, 0, 10 * MS, 0, 10 * MS),
                new IdleBreakdown(2 * MS, 8 * MS, 0, List.of()), 10 * MS, 0L, TailKind.NONE, null,
                new CommSplit(8 * MS, 2 * MS, CommSplit.CROSS_RANK));
        RankReport r0 = Reports.rank(0, 2, List.of(waiting));
        RankReport r1 = Reports.rank(1, 2, List.of(waiting));
        // Last at 2 of 4: not "most".
        CrossRankReport cross = Reports.crossRank(List.of(0, 1),
                List.of(new Straggler(1, 0, 2, 5 * MS, 0, 0, 0, null)), 4, List.of(), List.of());
        List<Finding> f = judge(r0, cross, List.of(r0, r1));
        assertTrue(f.stream().noneMatch(x -> x.evidence().contains("rank 1")), f.toString());
        assertTrue(judge(r1, cross, List.of(r0, r1)).stream().noneMatch(x -> x.kind().equals("STRAGGLER")));
    }

    @Test
    void aCollectiveMismatchComesFirstWithoutASaving() {
        RankReport r0 = Reports.rank(0, 2, List.of(Reports.typical("s1")));
        RankReport r1 = Reports.rank(1, 2, List.of(Reports.typical("s1")));
        Mismatch m = new Mismatch("default_pg", 7, Mismatch.MismatchKind.MISSING, Mismatch.Severity.ERROR, "s1",
                List.of(), List.of(1), 0, "rank 1 issued 7 collectives, rank 0 issued 8");
        CrossRankReport cross = Reports.crossRank(List.of(0, 1), List.of(), 0, List.of(), List.of(m));
        Findings findings = Findings.of(cross, Findings.medians(List.of(r0, r1)), 2, UnaryOperator.identity());
        Findings.Judged judged = findings.judge(List.of(r0, r1));
        Finding first = judged.findings().get(0);
        assertEquals("COLLECTIVE_MISMATCH", first.kind());
        assertNull(first.savingNs());
        assertEquals(List.of(1), first.ranks());
        assertEquals("COLLECTIVE_MISMATCH", judged.ranks().get(1).findings().get(0).kind());
        assertEquals(1, judged.findings().stream().filter(x -> x.kind().equals("COLLECTIVE_MISMATCH")).count(),
                "the job lists a mismatch once");
    }

    @Test
    void theJobRanksByTheSlowestRankAndNamesEveryRankAFindingComesFrom() {
        Reports.Step fast = Reports.typical("s1");
        // Rank 1's step is 120 ms; its host-bound idle 70 ms.
        Reports.Step slow = new Reports.Step("s1", 120 * MS, new StepBreakdown(20 * MS, 0, 10 * MS, 2 * MS, 88 * MS),
                new IdleBreakdown(70 * MS, 18 * MS, 0, List.of()), 10 * MS, 3 * MS, TailKind.LAST_BUCKET, null,
                fast.split());
        RankReport r0 = Reports.rank(0, 2, List.of(fast));
        RankReport r1 = Reports.rank(1, 2, List.of(slow));
        Findings findings = Findings.of(null, Findings.medians(List.of(r0, r1)), 2, UnaryOperator.identity());
        Finding top = findings.judge(List.of(r0, r1)).findings().get(0);
        assertEquals("HOST_BOUND", top.kind());
        assertEquals(70 * MS, top.savingNs(), "the slowest rank's saving");
        assertEquals(70.0 / 120.0, top.shareOfStep(), 1e-12);
        assertEquals(List.of(0, 1), top.ranks());
        assertTrue(top.evidence().startsWith("rank 1: "), top.evidence());
    }
}
