package io.overlapanalyze.report;

/**
 * Compute slowdown under overlap for one kernel name (metrics.md §9). JSON names are a contract.
 *
 * @param kernel             kernel name
 * @param overlappedCount    instances that ran at least half their time under communication
 * @param isolatedCount      instances that never overlapped communication
 * @param overlappedMedianNs median duration of the overlapped instances
 * @param isolatedMedianNs   median duration of the isolated instances
 * @param slowdownPct        {@code (overlappedMedian − isolatedMedian) / isolatedMedian × 100}
 * @param extraPerStepNs     {@code (overlappedMedian − isolatedMedian) × overlappedCount / steps}
 *                           (floor): what the slowdown costs a step
 */
public record ContentionReport(String kernel, int overlappedCount, int isolatedCount, long overlappedMedianNs,
                               long isolatedMedianNs, double slowdownPct, long extraPerStepNs)
                                       implements java.io.Serializable {
}
