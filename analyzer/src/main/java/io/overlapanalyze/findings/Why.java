package io.overlapanalyze.findings;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Why a late rank is late, from its own breakdown against the other ranks' (metrics.md §13): which
 * of its host-bound idle, its compute and its launch delays exceeds the others' median the most.
 * Says nothing when none does, or when the figures are missing.
 */
final class Why {
    private Why() {
    }

    private record Cause(String what, String action, Function<RankMedians, Long> figure) {
    }

    private static final List<Cause> CAUSES = List.of(
            new Cause("its device waited for its host", "look at what its host does (data loading, Python "
                    + "work, logging or checkpointing on that rank alone)", RankMedians::hostIdleNs),
            new Cause("its compute took longer", "check its device (clocks, thermals, a slower or shared GPU) "
                    + "and whether it gets more work (uneven data or expert load)", RankMedians::computeNs),
            new Cause("it issued its collectives later after their data was ready", "remove the host work "
                    + "before its collective launches", RankMedians::launchLateNs));

    /** "its device waited for its host 1.200 ms per step against 0.400 ms on the other ranks (median)". */
    static String late(int rank, RankMedians mine, List<RankMedians> others) {
        Cause c = cause(mine, others);
        if (c == null) {
            return "its own breakdown does not show why (no longer host idle, compute or launch delay than "
                    + "the others')";
        }
        return c.what() + " " + Numbers.ms(c.figure().apply(mine)) + " per step against "
                + Numbers.ms(othersMedian(c, others)) + " on the other ranks (median)";
    }

    static String action(int rank, RankMedians mine, List<RankMedians> others) {
        Cause c = cause(mine, others);
        return c == null ? "compare its timeline with another rank's" : c.action();
    }

    private static Cause cause(RankMedians mine, List<RankMedians> others) {
        if (mine == null || others.isEmpty()) {
            return null;
        }
        Cause best = null;
        long bestExcess = 0;
        for (Cause c : CAUSES) {
            Long own = c.figure().apply(mine);
            if (own == null || others.stream().map(c.figure()).anyMatch(Objects::isNull)) {
                continue;
            }
            long excess = own - othersMedian(c, others);
            if (excess > bestExcess) {
                best = c;
                bestExcess = excess;
            }
        }
        return best;
    }

    private static long othersMedian(Cause c, List<RankMedians> others) {
        return StepFigures.median(others.stream().map(c.figure()).filter(Objects::nonNull)
                .mapToLong(Long::longValue).toArray());
    }
}
