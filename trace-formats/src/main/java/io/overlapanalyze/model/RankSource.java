package io.overlapanalyze.model;

/** Where a rank id came from; reported so users know how much to trust it. */
public enum RankSource {
    /** The trace's own metadata (Kineto {@code distributedInfo.rank}, an Nsight environment variable...). */
    TRACE,
    /** Parsed from the file name. */
    FILE_NAME,
    /** Given by the user. */
    USER,
    /** Nothing said which rank this is; 0 was assumed. */
    DEFAULT,
    /**
     * Guessed from the trace's layout, not stated by it: e.g. the processes of one Nsight export
     * numbered in CUDA device order (nsys.md §8, heuristic 6).
     */
    INFERRED
}
