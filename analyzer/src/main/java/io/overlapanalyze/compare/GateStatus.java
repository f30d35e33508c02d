package io.overlapanalyze.compare;

/** Outcome of one gate check, and of the whole gate. */
public enum GateStatus {
    PASS,
    REGRESSION,
    /** The metric is not defined on one side; it cannot fail the gate. */
    SKIPPED,
    /**
     * Over its thresholds, with too few samples on a side to tell a change from noise (metrics.md §10):
     * never a silent pass. The gate fails on it unless the user lets it pass ({@code --inconclusive pass}).
     * Added after the first three: a script reading the status must expect it.
     */
    INCONCLUSIVE
}
