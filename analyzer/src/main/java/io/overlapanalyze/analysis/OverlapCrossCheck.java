package io.overlapanalyze.analysis;

import io.overlapanalyze.model.ReferenceOverlap;
import io.overlapanalyze.report.CrossCheckStep;
import io.overlapanalyze.report.CrossCheckValue;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts our per-step overlap numbers next to the ones the profiler computed itself (Ascend's
 * Overlap Analysis lane or {@code analysis.db} StepTraceTime), matched by step name. Nothing is
 * corrected or averaged: the difference is shown as it is, so a user (and our tests) can see
 * whether both sides measure the same thing. Definitions that differ by design are written down in
 * docs/ascend-cross-check.md.
 */
public final class OverlapCrossCheck {
    private OverlapCrossCheck() {
    }

    /**
     * One row per reference step, in the reference's order. A reference step we do not have
     * (work launched outside every step, say) keeps its values with ours {@code null}.
     */
    public static List<CrossCheckStep> compare(List<ReferenceOverlap> reference, List<StepReport> steps) {
        if (reference == null || reference.isEmpty()) {
            return List.of();
        }
        Map<String, StepReport> byName = new HashMap<>();
        for (StepReport s : steps) {
            byName.putIfAbsent(s.name(), s);
        }
        List<CrossCheckStep> rows = new ArrayList<>(reference.size());
        for (ReferenceOverlap ref : reference) {
            StepReport s = byName.get(ref.step());
            rows.add(new CrossCheckStep(ref.step(), ref.origin(),
                    CrossCheckValue.of(s == null ? null : s.computeBusyNs(), ref.computingNs()),
                    CrossCheckValue.of(s == null ? null : s.commBusyNs(), ref.communicationNs()),
                    CrossCheckValue.of(s == null ? null : s.exposedCommNs(), ref.commNotOverlappedNs()),
                    CrossCheckValue.of(s == null ? null : s.idleNs(), ref.freeNs())));
        }
        return rows;
    }
}
