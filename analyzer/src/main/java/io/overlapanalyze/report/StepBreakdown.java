package io.overlapanalyze.report;

/**
 * Where a step's period went (metrics.md §11): each instant of the period counted once, by what the
 * device ran, in this precedence: compute (or other device work), fused, communication alone,
 * copies alone, idle. The five add up to the step's {@code stepPeriodNs} exactly. JSON field names
 * are a contract read by scripts: do not rename.
 *
 * @param computeNs COMPUTE or OTHER device work ran
 * @param fusedNs   else a FUSED kernel ran
 * @param commNs    else communication ran (communication alone)
 * @param copyNs    else a MEMCPY or MEMSET ran (copies alone)
 * @param idleNs    nothing ran (the step's {@code idleNs})
 */
public record StepBreakdown(long computeNs, long fusedNs, long commNs, long copyNs, long idleNs)
        implements java.io.Serializable {
    /** The sum of the five parts: the period they split. */
    public long totalNs() {
        return computeNs + fusedNs + commNs + copyNs + idleNs;
    }
}
