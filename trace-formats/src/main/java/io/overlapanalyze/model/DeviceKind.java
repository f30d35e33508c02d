package io.overlapanalyze.model;

/** What a device interval is (metrics.md §1). */
public enum DeviceKind {
    /** A compute kernel or task. */
    COMPUTE,
    /** A kernel or task that belongs to a collective (or matches a communication name pattern). */
    COMM,
    /** A memory copy; neither compute nor communication. */
    MEMCPY,
    /** A memory set; neither compute nor communication. */
    MEMSET,
    /** Stream/event/device synchronisation; never compute. */
    SYNC,
    /** Anything else seen on a device lane. */
    OTHER,
    /**
     * One kernel that computes and communicates inside itself (Ascend MC², fused GEMM+collective
     * kernels): neither compute nor communication, its own union (metrics.md §1, §5). Last, so
     * that the ordinals stored in the columns of the model keep their meaning.
     */
    FUSED;

    private static final DeviceKind[] VALUES = values();

    public static DeviceKind ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }
}
