package io.overlapanalyze.analysis;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Lane;

import java.util.List;

/**
 * What a step's fused compute-communication kernels (metrics.md §1 {@code FUSED}) are made of,
 * where the trace says so, and the step as Huawei's Overlap Analysis lane counts it.
 *
 * <p>Ascend records an MC² operator twice: its kernel on a compute stream, and its communication
 * as an op on the communication lane (msprof's "kfc" op: the span of the AI CPU task that drives
 * the operator's communication, the same record the DB export puts in {@code COMMUNICATION_OP}).
 * Both are FUSED here; the op-level one sits on a lane without a stream id (the readers' HCCL op
 * lanes), which is how it is told from the kernel. Its union is {@code fusedCommNs}. No format we
 * read carries the compute part of the kernel on its own (the kernel's span covers compute and the
 * waits for its communication alike), so {@code fusedComputeNs} is always unknown.
 *
 * <p>Huawei's lane counts an MC² kernel as Computing (every compute task, except those on the AI
 * CPU "kfc" stream and those named {@code …AicpuKernel} / {@code …AivKernel}) and its kfc op as
 * Communication (msprof {@code overlap_analysis_processor.cpp}). {@link #profilerView} gives the
 * step's Computing, Communication and Communication(Not Overlapped) by that rule, so the
 * cross-check compares like with like on steps with MC² kernels.
 */
public final class FusedAnalysis {
    private FusedAnalysis() {
    }

    /** The step's Computing, Communication and Not-overlapped the way Huawei's lane counts fused kernels. */
    public record ProfilerView(long computingNs, long communicationNs, long notOverlappedNs) {
    }

    /** {@code |F_comm|}, the union of the fused operators' own communication records; {@code null} when there are none. */
    public static Long fusedCommNs(StepContext step) {
        IntervalSet fc = parts(step, true);
        return fc == null ? null : fc.length();
    }

    /** The step by Huawei's rule; {@code null} when it has no fused kernel (then it is our numbers). */
    public static ProfilerView profilerView(StepContext step) {
        if (step.fused().length == 0) {
            return null;
        }
        DeviceIntervals dev = step.device();
        IntervalSet k = IntervalSet.unionOf(dev, step.compute());
        IntervalSet c = IntervalSet.unionOf(dev, step.comm());
        IntervalSet fc = parts(step, true);
        IntervalSet fk = parts(step, false);
        IntervalSet computing = fk == null ? k : k.union(fk);
        IntervalSet communication = fc == null ? c : c.union(fc);
        long comm = communication.length();
        return new ProfilerView(computing.length(), comm, comm - communication.intersectionLength(computing));
    }

    /** The fused communication records ({@code comm}) or the fused kernels Huawei counts as Computing. */
    private static IntervalSet parts(StepContext step, boolean comm) {
        DeviceIntervals dev = step.device();
        List<Lane> lanes = step.trace().lanes();
        IntervalSet.Builder b = IntervalSet.builder();
        boolean any = false;
        for (int i : step.fused()) {
            int lane = dev.lane(i);
            boolean opRecord = lane >= 0 && lane < lanes.size() && lanes.get(lane).stream() < 0;
            if (opRecord != comm) {
                continue;
            }
            String name = dev.name(i);
            if (!comm && name != null && (name.endsWith("AicpuKernel") || name.endsWith("AivKernel"))) {
                continue; // the kfc stream's server task: left out of Computing by msprof
            }
            b.add(dev.start(i), dev.end(i));
            any = true;
        }
        return any ? b.build() : null;
    }
}
