package io.overlapanalyze.report;

/**
 * One all-gather of a step (FSDP / ZeRO parameter prefetch) and the compute that consumes it.
 * Times absolute on the rank's clock, lengths in ns.
 *
 * @param collective       collective id within the rank
 * @param phase            phase of its enqueue (FORWARD, BACKWARD, ...)
 * @param bytes            message bytes, or {@code null} when unknown
 * @param startNs          device start of the all-gather
 * @param endNs            device end of the all-gather (its parameters are available)
 * @param consumerKernel   name of the first compute kernel that consumes it; {@code null} when
 *                         no consumer could be identified
 * @param consumerStartNs  device start of that kernel, or {@code null}
 * @param computeFreeNs    when the consumer's stream had finished its previous work in the step
 *                         (the step's device start when none): from then on it only waited
 * @param lateNs           {@code max(0, endNs − computeFreeNs)}: how late the prefetch finished
 *                         for the stream that needed it; {@code null} without a consumer
 * @param waitNs           compute-stream idle caused by it:
 *                         {@code max(0, min(consumerStart, endNs) − computeFreeNs)}; {@code null}
 *                         without a consumer
 * @param rule             how the consumer was found: {@code STREAM_WAIT} (the compute stream
 *                         waited on an event recorded after the all-gather), {@code DEVICE_ORDER}
 *                         (the first compute launched after the enqueue that starts after the
 *                         all-gather ended: approximate), or {@code NONE}
 */
public record PrefetchReport(int collective, String phase, Long bytes, long startNs, long endNs,
                             String consumerKernel, Long consumerStartNs, Long computeFreeNs, Long lateNs,
                             Long waitNs, String rule) implements java.io.Serializable {
}
