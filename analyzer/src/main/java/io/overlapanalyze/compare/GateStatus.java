package io.overlapanalyze.compare;

/** Outcome of one gate check, and of the whole gate. */
public enum GateStatus {
    PASS,
    REGRESSION,
    /** The metric is not defined on one side; it cannot fail the gate. */
    SKIPPED
}
