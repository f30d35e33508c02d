package io.overlapanalyze.findings;

import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.MatchedCollective;
import io.overlapanalyze.report.Straggler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job's straggler as the cross-rank section shows it (metrics.md §8): the rank that arrived
 * last at most of the timed collectives, and what the others waited for it per step. Nothing when
 * the section has no timed collective (clocks not aligned, or too rough to time arrivals), so no
 * rank is ever called late that the straggler table does not show late.
 *
 * @param rank             the late rank
 * @param timesLast        how often it arrived last
 * @param timed            how many collectives were timed
 * @param othersWaitNs     per step, median over the other ranks of their wait at the collectives it
 *                         arrived last at; then the median over steps
 * @param steps            how many steps the wait was measured in
 */
record LateRank(int rank, int timesLast, int timed, long othersWaitNs, int steps) {

    static LateRank of(CrossRankReport cross) {
        if (cross == null || cross.stragglers().isEmpty() || cross.skew() == null || cross.skew().timed() == 0) {
            return null;
        }
        Straggler top = cross.stragglers().get(0);
        int timed = cross.skew().timed();
        if (top.timesArrivedLast() == 0 || 2 * top.timesArrivedLast() <= timed || top.waitedForNs() <= 0) {
            return null;
        }
        // Per step, per waiting rank: the sum of its waits at the collectives the late rank came last to.
        Map<String, Map<Integer, Long>> byStep = new TreeMap<>();
        for (MatchedCollective c : cross.collectives()) {
            if (c.lastRank() == null || c.lastRank() != top.rank() || c.waitsNs() == null || c.step() == null) {
                continue;
            }
            Map<Integer, Long> waits = byStep.computeIfAbsent(c.step(), k -> new HashMap<>());
            c.waitsNs().forEach((r, w) -> {
                if (r != top.rank()) {
                    waits.merge(r, w, Long::sum);
                }
            });
        }
        List<Long> perStep = new ArrayList<>();
        for (Map<Integer, Long> waits : byStep.values()) {
            perStep.add(StepFigures.median(waits.values().stream().mapToLong(Long::longValue).toArray()));
        }
        long wait = StepFigures.median(perStep.stream().mapToLong(Long::longValue).toArray());
        return new LateRank(top.rank(), top.timesArrivedLast(), timed, wait, perStep.size());
    }

    /**
     * The peer that rank {@code r}'s communication waited for: the job's straggler when that is
     * another rank, else {@code null}. Only the straggler table names a late rank, so a finding never
     * calls a rank late that the cross-rank section does not show late.
     */
    static Integer waitedForBy(int r, LateRank late) {
        return late != null && late.rank() != r ? late.rank() : null;
    }
}
