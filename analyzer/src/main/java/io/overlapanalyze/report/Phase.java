package io.overlapanalyze.report;

/** The training phase device work belongs to (metrics.md §2). */
public enum Phase {
    FORWARD, BACKWARD, OPTIMIZER, UNKNOWN
}
