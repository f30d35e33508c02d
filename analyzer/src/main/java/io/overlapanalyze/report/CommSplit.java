package io.overlapanalyze.report;

/**
 * A step's exposed communication split into waiting and transfer (metrics.md §12): the part during
 * which the collective that ran was waiting (for peers to arrive, for the other side of a send) and
 * the rest. JSON field names are a contract: do not rename.
 *
 * @param waitNs     exposed communication spent waiting; {@code null} when unknown
 * @param transferNs exposed communication spent transferring; {@code null} when unknown
 * @param source     where the split comes from: {@link #PROFILER} (the capture's own split),
 *                   {@link #CROSS_RANK} (arrivals across ranks), {@link #ESTIMATED} (one rank: the
 *                   shortest instance of the same collective taken as its transfer); {@code null}
 *                   when unknown
 */
public record CommSplit(Long waitNs, Long transferNs, String source) implements java.io.Serializable {
    public static final String PROFILER = "profiler";
    public static final String CROSS_RANK = "crossRank";
    public static final String ESTIMATED = "estimated";
    /**
     * How a rank note ends that says the waiting may be for ranks outside the input (metrics.md §12:
     * the input names a group or world size larger than the ranks read); renderers look for it.
     */
    public static final String OUTSIDE_RANKS_NOTE_END = "may be for ranks outside the input";

    /** No evidence: both parts unknown (never 0). */
    public static CommSplit unknown() {
        return new CommSplit(null, null, null);
    }

    /** True when the split is known. */
    public boolean known() {
        return waitNs != null && transferNs != null;
    }
}
