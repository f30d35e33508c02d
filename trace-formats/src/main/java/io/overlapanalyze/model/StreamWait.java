package io.overlapanalyze.model;

/**
 * An explicit cross-lane dependency: from its submission on, work on {@code waitingLane} waits
 * until everything submitted to {@code recordedLane} before an event was recorded there has
 * finished (CUDA {@code cudaEventRecord} on one stream, {@code cudaStreamWaitEvent} on another;
 * Kineto {@code cuda_sync} "Stream Wait Event", kineto.md §3.1). ProcessGroupNCCL makes every
 * collective wait so for the compute stream that produced its input; metrics.md §4 uses it for
 * data-ready times.
 *
 * <p>All times are host-clock ns like every other model time. Stream order is submission order,
 * so the wait is placed among the waiting lane's work by {@code submitNs}, not by the time the
 * trace draws it at.
 *
 * @param waitingLane  lane index of the stream that waits
 * @param waitNs       the wait's own time as the trace writes it (Kineto: the {@code ts} of the
 *                     {@code cuda_sync} event, which CUPTI stamps with the API call's times)
 * @param submitNs     host time at which the wait was submitted to {@code waitingLane} (the
 *                     {@code cudaStreamWaitEvent} call); {@link Time#UNKNOWN} when unknown
 * @param recordedLane lane index of the stream the awaited event was recorded on; {@code -1} when
 *                     unknown or when that stream has no device work in the trace
 * @param recordHostNs host time of the {@code cudaEventRecord} call; {@link Time#UNKNOWN} when
 *                     unknown
 */
public record StreamWait(int waitingLane, long waitNs, long submitNs, int recordedLane, long recordHostNs) {

    /** True when the wait names a recorded lane and the moment of the record: it can be followed. */
    public boolean recordKnown() {
        return recordedLane >= 0 && Time.isKnown(recordHostNs);
    }
}
