package io.overlapanalyze.render.timeline;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

/**
 * What every picture of one rank's step draws: the step's numbers and the unions of its device
 * work by kind, on the rank's clock (absolute ns).
 *
 * <p>The unions are built from the same intervals the analyzer used for the step (device work
 * launched in the step, metrics.md §2), so {@code exposed().length() == step().exposedCommNs()}:
 * a picture never shows a different number than the report.
 *
 * @param rank     the rank's report (for its id and source)
 * @param step     the step's report: markers, tail, attribution chain
 * @param compute  K: union of COMPUTE intervals
 * @param comm     C: union of COMM intervals
 * @param memory   M: union of MEMCPY and MEMSET intervals (empty when the step copies nothing)
 * @param exposed  C − K: communication with no compute running
 * @param fused    F: union of FUSED kernels, which compute and communicate inside themselves (empty
 *                 when the step has none)
 */
public record StepTimeline(RankReport rank, StepReport step, IntervalSet compute, IntervalSet comm,
                           IntervalSet memory, IntervalSet exposed, IntervalSet fused) {

    /** Start of the drawn window: the step's first device start. */
    public long startNs() {
        return step.deviceStartNs();
    }

    /** End of the drawn window: the step's last device end. */
    public long endNs() {
        return step.deviceEndNs();
    }

    /** Window length, at least 1 ns so that scales never divide by zero. */
    public long spanNs() {
        return Math.max(1, endNs() - startNs());
    }
}
