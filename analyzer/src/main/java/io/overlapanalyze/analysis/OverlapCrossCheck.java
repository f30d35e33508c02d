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
    /** What a row's own side means on a step with fused kernels. */
    public static final String FUSED_RULE = "fused kernels counted as the profiler counts MC2: the kernel as "
            + "computing, its communication op as communication";

    private OverlapCrossCheck() {
    }

    /**
     * One row per reference step, in the reference's order. A reference step we do not have
     * (work launched outside every step, say) keeps its values with ours {@code null}.
     */
    public static List<CrossCheckStep> compare(List<ReferenceOverlap> reference, List<StepReport> steps) {
        return compare(reference, steps, Map.of());
    }

    /**
     * As {@link #compare(List, List)}; for a step in {@code profilerViews} (one with fused kernels:
     * {computing, communication, not overlapped} counted the way Huawei's lane counts MC², kernel
     * as Computing and its communication op as Communication) those are our side, so both sides
     * count the same tasks; its row says so.
     */
    public static List<CrossCheckStep> compare(List<ReferenceOverlap> reference, List<StepReport> steps,
                                               Map<String, long[]> profilerViews) {
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
            long[] view = s == null ? null : profilerViews.get(s.name());
            Long computing = s == null ? null : view != null ? view[0] : s.computeBusyNs();
            Long communication = s == null ? null : view != null ? view[1] : s.commBusyNs();
            Long exposed = s == null ? null : view != null ? view[2] : s.exposedCommNs();
            rows.add(new CrossCheckStep(ref.step(), ref.origin(),
                    CrossCheckValue.of(computing, ref.computingNs()),
                    CrossCheckValue.of(communication, ref.communicationNs()),
                    CrossCheckValue.of(exposed, ref.commNotOverlappedNs()),
                    CrossCheckValue.of(s == null ? null : s.idleNs(), ref.freeNs()),
                    view == null ? null : FUSED_RULE));
        }
        return rows;
    }
}
