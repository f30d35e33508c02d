package io.overlapanalyze.report;

/**
 * One rank's row of the straggler table (metrics.md §8).
 *
 * @param rank                 rank
 * @param totalWaitNs          Σ wait_r: time this rank spent inside collectives waiting for the last peer
 * @param timesArrivedLast     collectives where it arrived strictly after every other member
 * @param waitedForNs          Σ over those of (its arrival − the next-latest arrival): the time the job
 *                             waited on this rank alone; the ranking key (most waited-for first)
 * @param exposedCommNs        |C − K| over the whole trace on this rank
 * @param exposedWaitNs        the part of it spent waiting for peers (|W − K|, W = each collective's first wait_r ns)
 * @param exposedTransferNs    the rest
 * @param exposedWaitShare     exposedWait / exposedComm, {@code null} when no exposed comm
 */
public record Straggler(int rank, long totalWaitNs, int timesArrivedLast, long waitedForNs, long exposedCommNs,
                        long exposedWaitNs, long exposedTransferNs, Double exposedWaitShare)
                                implements java.io.Serializable {
}
