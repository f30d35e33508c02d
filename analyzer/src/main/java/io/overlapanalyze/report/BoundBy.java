package io.overlapanalyze.report;

/** What a collective on the tail's critical path waited for (metrics.md §6). */
public enum BoundBy {
    DATA, LAUNCH, QUEUE, UNEXPLAINED
}
