package io.overlapanalyze.report;

/** The kinds of finding (metrics.md §13). */
public enum FindingKind {
    /** A cross-rank ERROR: the job would hang or reduce the wrong data. Ranked first. */
    COLLECTIVE_MISMATCH,
    /** The device waited for the host to issue work. */
    HOST_BOUND,
    /** Issued work waited to start (stream or event dependency, launch latency). */
    DEPENDENCY_IDLE,
    /** A rank arrives last at most matched collectives. */
    STRAGGLER,
    /** Exposed communication is mostly waiting. */
    WAITING,
    /** Exposed communication is mostly transfer. */
    EXPOSED_TRANSFER,
    /** Exposed communication that no evidence splits into waiting and transfer (metrics.md §12: unknown). */
    EXPOSED_COMM,
    /** A tail with cause LAST_BUCKET, COMM_BOUND or LAUNCH_BOUND. */
    TAIL,
    /** Collectives issued after their data was ready. */
    LATE_LAUNCH,
    /** Compute slower under overlap. */
    COMPUTE_SLOWDOWN,
    /** Copies with nothing else running. */
    EXPOSED_COPY,
    /** Pipeline bubbles. */
    PIPELINE_BUBBLE,
    /** FSDP / ZeRO prefetch that arrived late. */
    LATE_PREFETCH
}
