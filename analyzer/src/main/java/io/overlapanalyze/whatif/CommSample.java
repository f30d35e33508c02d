package io.overlapanalyze.whatif;

import io.overlapanalyze.model.CollectiveType;

/**
 * One measured collective for the cost-model fit: its size and how long its device work took.
 *
 * @param groupSize  ranks in its process group, or {@code -1} when the trace does not say
 * @param durationNs device end − device start of the collective
 */
public record CommSample(CollectiveType type, int groupSize, long bytes, long durationNs) {
}
