package io.overlapanalyze.render.timeline;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.io.Serializable;

/**
 * The intervals of one step's {@link StepTimeline} without the reports: what a machine that read
 * the trace sends to the one that draws the page. The exposed union is not sent; it is
 * {@code comm − compute}, computed again the same way on arrival.
 *
 * @param compute K: union of COMPUTE intervals
 * @param comm    C: union of COMM intervals
 * @param memory  M: union of MEMCPY and MEMSET intervals
 * @param fused   F: union of FUSED kernels
 */
public record StepUnions(IntervalSet compute, IntervalSet comm, IntervalSet memory, IntervalSet fused)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    public static StepUnions of(StepTimeline t) {
        return new StepUnions(t.compute(), t.comm(), t.memory(), t.fused());
    }

    /** The timeline of {@code step} of {@code rank} (the reports the page walks) with these unions. */
    public StepTimeline on(RankReport rank, StepReport step) {
        return new StepTimeline(rank, step, compute, comm, memory, comm.subtract(compute), fused);
    }
}
