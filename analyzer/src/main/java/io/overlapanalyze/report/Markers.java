package io.overlapanalyze.report;

/**
 * The four markers of metrics.md §4, absolute times on the rank's clock (same clock as
 * {@code deviceStartNs}); {@code null} when not defined (no gradient collectives in the step).
 */
public record Markers(Long firstBucketReadyNs, Long reduceStartNs, Long lastComputeEndNs, Long lastReduceEndNs,
                      Long lastBucketReadyNs) implements java.io.Serializable {
    public static Markers undefined() {
        return new Markers(null, null, null, null, null);
    }
}
