package io.overlapanalyze.report;

/**
 * One collective on the critical path back from the last reduction.
 *
 * @param collective  collective id within the rank
 * @param type        collective type ("ALL_REDUCE")
 * @param bytes       message bytes, or {@code null} when unknown
 * @param startNs     device start
 * @param endNs       device end
 * @param dataReadyNs when its input was complete, or {@code null}
 * @param enqueueNs   host enqueue time, or {@code null}
 * @param queueFreeNs end of the previous COMM interval on its lane, or {@code null}
 * @param boundBy     the reason it started when it did
 */
public record ChainLink(int collective, String type, Long bytes, long startNs, long endNs, Long dataReadyNs,
                        Long enqueueNs, Long queueFreeNs, BoundBy boundBy) implements java.io.Serializable {
}
