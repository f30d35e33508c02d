package io.overlapanalyze.report;

/**
 * Pipeline-parallel view of one step: point-to-point send/recv time overlapped with
 * compute (other micro-batches' work) versus exposed, and the pipeline bubbles (the device not
 * computing inside the step's window). Lengths in ns.
 *
 * @param p2pCollectives  send/recv collectives with device work in the step
 * @param p2pBusyNs       |P|, the union of their device intervals
 * @param p2pOverlappedNs |P ∩ K| with K the union of compute
 * @param p2pExposedNs    |P − K|
 * @param bubbleNs        |W − K|: step window W without compute (waiting on receives, ramp-up and
 *                        drain of the pipeline, exposed communication)
 * @param bubbles         number of disjoint runs of W − K
 * @param largestBubbleNs the longest run, or 0 when none
 */
public record PipelineReport(int p2pCollectives, long p2pBusyNs, long p2pOverlappedNs, long p2pExposedNs,
                             long bubbleNs, int bubbles, long largestBubbleNs) implements java.io.Serializable {
}
