package io.overlapanalyze.synth;

import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;

import java.util.Locale;

/**
 * How one gradient-bucket slot is written: host op, collective name, NCCL kernel, element counts,
 * dtype and the optional {@code Seq} (kineto.md §6). Single-rank traces always write
 * {@link #allReduce(long)} without a Seq; a job can write other types and deliberate mismatches.
 *
 * @param seq {@code Seq} value, or {@code -1} to write none
 */
record CollectiveSpec(String c10dOp, String collectiveName, String annotation, String kernel, long inElements,
                      long outElements, String dtype, long seq) {

    /** Chooses the spec of a slot. */
    interface Source {
        /** Every slot is the plain float32 all-reduce of its bucket's bytes: the single-rank trace. */
        Source DEFAULT = (scenario, stepNumber, r) -> allReduce(r.bytes() / 4);

        CollectiveSpec spec(Scenario rankScenario, int stepNumber, PlannedReduction reduction);
    }

    static CollectiveSpec allReduce(long elements) {
        return new CollectiveSpec("c10d::allreduce_", "allreduce", "nccl:all_reduce", TraceEventBuilder.NCCL_KERNEL,
                elements, elements, "Float", -1);
    }

    /**
     * A collective of {@code type} ("allreduce", "reducescatter", "allgather", "broadcast") moving
     * a float32 buffer of {@code elements} in a group of {@code groupSize}: the larger side holds
     * {@code elements}, the smaller {@code elements / groupSize} (metrics.md §8 size rules).
     */
    static CollectiveSpec of(String type, long elements, int groupSize) {
        switch (type.toLowerCase(Locale.ROOT).replace("_", "")) {
            case "allreduce":
                return allReduce(elements);
            case "reducescatter":
                return new CollectiveSpec("c10d::_reduce_scatter_base_", "_reduce_scatter_base",
                        "nccl:_reduce_scatter_base",
                        "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                        elements, elements / groupSize, "Float", -1);
            case "allgather":
                return new CollectiveSpec("c10d::_allgather_base_", "_allgather_base", "nccl:_all_gather_base",
                        "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                        elements / groupSize, elements, "Float", -1);
            case "broadcast":
                return new CollectiveSpec("c10d::broadcast_", "broadcast", "nccl:broadcast",
                        "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                        elements, elements, "Float", -1);
            default:
                throw new IllegalArgumentException("unknown collective type '" + type
                        + "' (known: allreduce, reducescatter, allgather, broadcast)");
        }
    }

    static boolean isKnownType(String type) {
        try {
            of(type, 1, 1);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    CollectiveSpec withElements(long in, long out) {
        return new CollectiveSpec(c10dOp, collectiveName, annotation, kernel, in, out, dtype, seq);
    }

    CollectiveSpec withDtype(String newDtype) {
        return new CollectiveSpec(c10dOp, collectiveName, annotation, kernel, inElements, outElements, newDtype, seq);
    }

    CollectiveSpec withSeq(long newSeq) {
        return new CollectiveSpec(c10dOp, collectiveName, annotation, kernel, inElements, outElements, dtype, newSeq);
    }
}
