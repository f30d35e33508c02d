package io.overlapanalyze.model;

/**
 * One logical communication operation (metrics.md §1).
 *
 * @param id                 position in {@link RankTrace#collectives()}
 * @param type               logical type
 * @param name               the name the trace gave it ({@code allreduce}, {@code nccl:all_reduce}, a kernel name)
 * @param group              process group, or {@code null} when the trace does not say
 * @param sequence           collective sequence number, or {@code -1} when the trace has none
 * @param inElements         input element count, or {@code -1}
 * @param outElements        output element count, or {@code -1}
 * @param dtype              element type name ("Float"), or {@code null}
 * @param bytes              message size in bytes, or {@code -1} when unknown
 * @param enqueueNs          host time the collective was issued, or {@link Time#UNKNOWN}
 * @param threadId           host thread that issued it, or {@code -1}
 * @param deviceIntervals    indexes into {@link RankTrace#device()} of its kernels/tasks, in start order
 * @param profilerTransferNs the profiler's own transfer time of this op (metrics.md §12 rule 1: Ascend
 *                           {@code communication.json} / {@code CommAnalyzerTime} Transit), at most
 *                           the op's device time; {@link Time#UNKNOWN} when the capture has no split
 * @param profilerWaitNs     the rest of the op's device time (waiting, synchronisation and idle inside
 *                           the op), so that transfer + wait = its device span; {@link Time#UNKNOWN}
 *                           exactly when {@code profilerTransferNs} is
 * @param groupSize          how many ranks its group has as the capture states it without listing
 *                           them (Ascend {@code communication_matrix.json} / {@code CommAnalyzerMatrix}
 *                           links), or {@code -1}; {@link ProcessGroup#ranks()} holds listed members
 */
public record Collective(int id, CollectiveType type, String name, ProcessGroup group, long sequence,
                         long inElements, long outElements, String dtype, long bytes, long enqueueNs,
                         long threadId, int[] deviceIntervals, long profilerTransferNs, long profilerWaitNs,
                         int groupSize) {

    /** A collective without the profiler's split and without a stated group size (most formats). */
    public Collective(int id, CollectiveType type, String name, ProcessGroup group, long sequence,
                      long inElements, long outElements, String dtype, long bytes, long enqueueNs,
                      long threadId, int[] deviceIntervals) {
        this(id, type, name, group, sequence, inElements, outElements, dtype, bytes, enqueueNs, threadId,
                deviceIntervals, Time.UNKNOWN, Time.UNKNOWN, -1);
    }

    /** This collective with the profiler's split (both {@link Time#UNKNOWN}: none) and a group size. */
    public Collective withProfilerSplit(long transferNs, long waitNs, int newGroupSize) {
        return new Collective(id, type, name, group, sequence, inElements, outElements, dtype, bytes, enqueueNs,
                threadId, deviceIntervals, transferNs, waitNs, newGroupSize);
    }

    /** True when the capture gave this op's transfer / waiting split. */
    public boolean hasProfilerSplit() {
        return Time.isKnown(profilerTransferNs) && Time.isKnown(profilerWaitNs);
    }
}
