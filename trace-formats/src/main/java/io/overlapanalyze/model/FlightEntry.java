package io.overlapanalyze.model;

import java.util.List;

/**
 * One operation a rank's PyTorch Flight Recorder ring buffer held when it was dumped (a hang or a
 * timeout): what the rank had enqueued on one process group and how far it got.
 *
 * @param recordId      the buffer's own running number (creation order on this rank)
 * @param groupName     process group name ({@code pg_config} key, {@code "72"})
 * @param groupDesc     process group description ({@code EXPERT_MODEL_PARALLEL_GROUP}), or {@code null}
 * @param localGroupId  the rank's local process group id ({@code pg_id}; {@code pg_status} is keyed by it), or -1
 * @param collectiveSeq collective sequence number in the group ({@code collective_seq_id})
 * @param p2pSeq        point-to-point sequence number in the group ({@code p2p_seq_id}; 0 for collectives)
 * @param p2p           whether it is a point-to-point operation
 * @param name          the profiling name ({@code nccl:all_to_all}, {@code nccl:send 0->3})
 * @param type          logical type from the name
 * @param peerFrom      for send/recv: the group-local source rank of the pair, else -1
 * @param peerTo        for send/recv: the group-local destination rank of the pair, else -1
 * @param inputSizes    input tensor shapes
 * @param inputDtypes   input element types ({@code BFloat16})
 * @param outputSizes   output tensor shapes
 * @param outputDtypes  output element types
 * @param state         {@code scheduled}, {@code started} or {@code completed}
 * @param createdNs     host time it was enqueued (epoch ns), or {@link Time#UNKNOWN}
 * @param startedNs     when the watchdog saw it start, or {@link Time#UNKNOWN} (timing off)
 * @param completedNs   when the watchdog saw it complete, or {@link Time#UNKNOWN}
 * @param threadName    host thread that enqueued it, or {@code null}
 */
public record FlightEntry(long recordId, String groupName, String groupDesc, int localGroupId, long collectiveSeq,
                          long p2pSeq, boolean p2p, String name, CollectiveType type, int peerFrom, int peerTo,
                          List<List<Long>> inputSizes, List<String> inputDtypes, List<List<Long>> outputSizes,
                          List<String> outputDtypes, String state, long createdNs, long startedNs, long completedNs,
                          String threadName) implements java.io.Serializable {
    public FlightEntry {
        inputSizes = List.copyOf(inputSizes);
        inputDtypes = List.copyOf(inputDtypes);
        outputSizes = List.copyOf(outputSizes);
        outputDtypes = List.copyOf(outputDtypes);
    }

    /** The sequence number this operation is matched by: p2p ones by {@code p2p_seq_id}. */
    public long matchSeq() {
        return p2p ? p2pSeq : collectiveSeq;
    }

    /** Total elements of the inputs, or -1 when no input shape is recorded (or it cannot be one). */
    public long inElements() {
        return elements(inputSizes);
    }

    /** Total elements of the outputs, or -1 when no output shape is recorded. */
    public long outElements() {
        return elements(outputSizes);
    }

    /** The first input's shape as {@code 2048x5120}, or {@code -} when there is none. */
    public String shapeText() {
        if (inputSizes.isEmpty()) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (Long d : inputSizes.get(0)) {
            if (b.length() > 0) {
                b.append('x');
            }
            b.append(d);
        }
        return b.length() == 0 ? "scalar" : b.toString();
    }

    /** The first input dtype, or {@code null}. */
    public String dtype() {
        return inputDtypes.isEmpty() ? null : inputDtypes.get(0);
    }

    private static long elements(List<List<Long>> shapes) {
        if (shapes.isEmpty()) {
            return -1;
        }
        long total = 0;
        try {
            for (List<Long> shape : shapes) {
                long n = 1;
                for (Long d : shape) {
                    if (d < 0) {
                        return -1; // not a shape: unknown, not a size
                    }
                    n = Math.multiplyExact(n, d);
                }
                total = Math.addExact(total, n);
            }
        } catch (ArithmeticException overflow) {
            return -1; // no tensor has 2^63 elements: the dump is wrong, the size unknown
        }
        return total;
    }
}
