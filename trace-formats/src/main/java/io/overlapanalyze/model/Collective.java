package io.overlapanalyze.model;

/**
 * One logical communication operation (metrics.md §1).
 *
 * @param id              position in {@link RankTrace#collectives()}
 * @param type            logical type
 * @param name            the name the trace gave it ({@code allreduce}, {@code nccl:all_reduce}, a kernel name)
 * @param group           process group, or {@code null} when the trace does not say
 * @param sequence        collective sequence number, or {@code -1} when the trace has none
 * @param inElements      input element count, or {@code -1}
 * @param outElements     output element count, or {@code -1}
 * @param dtype           element type name ("Float"), or {@code null}
 * @param bytes           message size in bytes, or {@code -1} when unknown
 * @param enqueueNs       host time the collective was issued, or {@link Time#UNKNOWN}
 * @param threadId        host thread that issued it, or {@code -1}
 * @param deviceIntervals indexes into {@link RankTrace#device()} of its kernels/tasks, in start order
 */
public record Collective(int id, CollectiveType type, String name, ProcessGroup group, long sequence,
                         long inElements, long outElements, String dtype, long bytes, long enqueueNs,
                         long threadId, int[] deviceIntervals) {
}
