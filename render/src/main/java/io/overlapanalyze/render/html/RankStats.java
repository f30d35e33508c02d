package io.overlapanalyze.render.html;

import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.EnumMap;
import java.util.Map;

/** Per-rank facts the page shows in several places. */
final class RankStats {
    private RankStats() {
    }

    /** The most frequent cause over steps with a tail (complete steps first), or {@code null}. */
    static TailKind dominantCause(RankReport rank) {
        Map<TailKind, Integer> kinds = new EnumMap<>(TailKind.class);
        for (StepReport s : rank.steps()) {
            if (s.tailNs() != null && s.tailNs() > 0 && !s.partial()) {
                kinds.merge(s.attribution().kind(), 1, Integer::sum);
            }
        }
        if (kinds.isEmpty()) {
            for (StepReport s : rank.steps()) {
                if (s.tailNs() != null && s.tailNs() > 0) {
                    kinds.merge(s.attribution().kind(), 1, Integer::sum);
                }
            }
        }
        return kinds.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    /** How many steps (with a tail) have that cause. */
    static int stepsWith(RankReport rank, TailKind kind) {
        int n = 0;
        for (StepReport s : rank.steps()) {
            if (s.tailNs() != null && s.tailNs() > 0 && s.attribution().kind() == kind) {
                n++;
            }
        }
        return n;
    }

    /** The step with the longest tail (then the most exposed communication); {@code null} without steps. */
    static StepReport worstStep(RankReport rank) {
        StepReport worst = null;
        for (StepReport s : rank.steps()) {
            if (s.deviceStartNs() == null) {
                continue;
            }
            if (worst == null || tail(s) > tail(worst)
                    || (tail(s) == tail(worst) && s.exposedCommNs() > worst.exposedCommNs())) {
                worst = s;
            }
        }
        return worst;
    }

    /** The step whose tail is the median of the rank's steps (lower middle); {@code null} without steps. */
    static StepReport medianStep(RankReport rank) {
        java.util.List<StepReport> withWork = rank.steps().stream().filter(s -> s.deviceStartNs() != null)
                .sorted(java.util.Comparator.comparingLong(RankStats::tail)
                        .thenComparingLong(StepReport::exposedCommNs))
                .toList();
        return withWork.isEmpty() ? null : withWork.get((withWork.size() - 1) / 2);
    }

    static long tail(StepReport s) {
        return s.tailNs() == null ? -1 : s.tailNs();
    }
}
