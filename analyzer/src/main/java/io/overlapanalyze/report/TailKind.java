package io.overlapanalyze.report;

/** Why the tail is as long as it is (metrics.md §6). */
public enum TailKind {
    /** The chain passes through at least one QUEUE link: more bytes than compute left to hide them. */
    COMM_BOUND,
    /** The last collective alone, bound by DATA: the tail is the last bucket's own transfer. */
    LAST_BUCKET,
    /** The chain ends on LAUNCH: the host issued a collective late. */
    LAUNCH_BOUND,
    /** The chain ends on a collective bound by nothing visible (waiting for peers, an untraced dependency). */
    UNEXPLAINED,
    /** No tail. */
    NONE,
    /**
     * Most of the chain's communication time was waiting, not transferring (metrics.md §6, §12): for
     * a late peer, for ranks outside the input, or for an unknown reason. Checked before COMM_BOUND.
     */
    WAIT
}
