package io.overlapanalyze.analysis.patterns;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.report.PipelineReport;

/**
 * Pipeline parallelism in one step: point-to-point sends and receives can run while
 * other micro-batches compute, so what matters is how much of their time is hidden under compute
 * and how long the device does not compute at all (the bubbles).
 *
 * <ul>
 *   <li>P = union of the COMM intervals of SEND / RECV collectives; K = union of COMPUTE
 *       (metrics.md §5 rule). Overlapped {@code |P ∩ K|}, exposed {@code |P − K|}.</li>
 *   <li>Bubbles are the runs of {@code W − K}, W the step's device window. The trace does not say
 *       where one micro-batch ends and the next begins, so every compute gap inside the step
 *       counts: the pipeline's ramp-up and drain, waits on receives, and any other idle. A pure
 *       data-parallel step's gaps are bubbles in the same sense; the section is shown only when
 *       the step has send/recv work.</li>
 * </ul>
 */
public final class PipelineAnalysis {
    private PipelineAnalysis() {
    }

    /** True for the point-to-point types. */
    static boolean isP2p(CollectiveType t) {
        return t == CollectiveType.SEND || t == CollectiveType.RECV;
    }

    /** The step's pipeline view, or {@code null} when it has no send/recv device work. */
    public static PipelineReport analyze(StepContext step) {
        DeviceIntervals dev = step.device();
        IntervalSet.Builder p = IntervalSet.builder();
        int count = 0;
        for (CollectiveSpan c : step.collectives()) {
            if (!isP2p(c.collective().type())) {
                continue;
            }
            count++;
            for (int i : c.intervals()) {
                if (dev.kind(i) == DeviceKind.COMM) {
                    p.add(dev.start(i), dev.end(i));
                }
            }
        }
        if (count == 0) {
            return null;
        }
        IntervalSet pSet = p.build();
        IntervalSet k = IntervalSet.unionOf(dev, step.compute());
        long overlapped = pSet.intersectionLength(k);
        IntervalSet bubbles = (step.hasDeviceWork() ? IntervalSet.of(step.windowStartNs(), step.windowEndNs())
                : IntervalSet.empty()).subtract(k);
        long largest = 0;
        for (int r = 0; r < bubbles.size(); r++) {
            largest = Math.max(largest, bubbles.end(r) - bubbles.start(r));
        }
        return new PipelineReport(count, pSet.length(), overlapped, pSet.length() - overlapped, bubbles.length(),
                bubbles.size(), largest);
    }
}
