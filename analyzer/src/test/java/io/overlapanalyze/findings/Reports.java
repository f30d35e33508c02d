package io.overlapanalyze.findings;

import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.ClockAlignment;
import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.Markers;
import io.overlapanalyze.report.MatchedCollective;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.SkewSummary;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Straggler;
import io.overlapanalyze.report.TailKind;

import java.util.List;
import java.util.Map;

/** Reports built by hand for the findings' tests: every figure set by the test, none computed. */
final class Reports {
    static final long MS = 1_000_000L;

    private Reports() {
    }

    /** The figures of one step that findings read. */
    record Step(String name, long periodNs, StepBreakdown breakdown, IdleBreakdown idle, long exposedCommNs,
                Long tailNs, TailKind tailKind, Long launchLateNs, CommSplit split) {
        Step withSplit(CommSplit s) {
            return new Step(name, periodNs, breakdown, idle, exposedCommNs, tailNs, tailKind, launchLateNs, s);
        }

        Step named(String n) {
            return new Step(n, periodNs, breakdown, idle, exposedCommNs, tailNs, tailKind, launchLateNs, split);
        }
    }

    /**
     * A 100 ms step: compute 20, comm alone 10, copies 2, idle 68 ms (60 waiting for the host in
     * "## forward ##", 8 after launch); exposed comm 10 ms, of it a 3 ms LAST_BUCKET tail; waiting
     * 5 ms and transfer 5 ms by the profiler.
     */
    static Step typical(String name) {
        return new Step(name, 100 * MS, new StepBreakdown(20 * MS, 0, 10 * MS, 2 * MS, 68 * MS),
                new IdleBreakdown(60 * MS, 8 * MS, 0, List.of(new HostActivity("## forward ##", 45 * MS),
                        new HostActivity("Optimizer.step#SGD.step", 15 * MS))),
                10 * MS, 3 * MS, TailKind.LAST_BUCKET, null, new CommSplit(5 * MS, 5 * MS, CommSplit.PROFILER));
    }

    static StepReport step(Step s) {
        long start = 1_000 * MS;
        return new StepReport(s.name(), false, start, start + s.periodNs(), s.periodNs(), s.exposedCommNs(),
                s.breakdown().computeNs(), 0, s.exposedCommNs(), s.exposedCommNs(), s.breakdown().idleNs(), 0, 0, 0.0,
                1, Markers.undefined(), s.tailNs(), s.tailNs(), null, s.launchLateNs(),
                new Attribution(s.tailKind(), List.of()), 10, 1, false, List.of(), List.of(), null, List.of(), null,
                null, null, s.periodNs(), 0L, 0L, null, null, List.of(), s.breakdown(), s.idle(), s.split());
    }

    static RankReport rank(int rank, Integer worldSize, List<Step> steps) {
        return new RankReport(rank, "TRACE", "rank" + rank + ".json", "KINETO", worldSize,
                steps.stream().map(Reports::step).toList(), null, List.of(), List.of(), List.of(), null, List.of(),
                null, null, List.of(), null, null);
    }

    /** A cross-rank section whose only content is the given stragglers, skew count, collectives and mismatches. */
    static CrossRankReport crossRank(List<Integer> ranks, List<Straggler> stragglers, int timed,
                                     List<MatchedCollective> collectives, List<Mismatch> mismatches) {
        return new CrossRankReport(ranks, ranks.size(), List.of(), List.of(),
                new ClockAlignment(true, timed, 1_000L, null), Map.of(), List.of(), mismatches,
                new SkewSummary(timed, null, null, null, null, null, null, null, null, 0L, 0), stragglers, List.of(),
                collectives, List.of(), List.of(), List.of(), null);
    }

    /** A matched collective of {@code step} that {@code last} arrived last at, with each rank's wait. */
    static MatchedCollective collective(String step, long index, int last, Map<Integer, Long> waits) {
        return new MatchedCollective("default_pg", index, "ALL_REDUCE", step, 1024L, waits.size(), null, null, 1L,
                last, null, null, waits);
    }
}
