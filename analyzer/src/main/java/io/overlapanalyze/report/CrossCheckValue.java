package io.overlapanalyze.report;

/**
 * One quantity computed twice: by this tool and by the profiler itself.
 *
 * @param oursNs   our value, or {@code null} when we have no such step
 * @param theirsNs the profiler's value
 * @param diffNs   {@code ours − theirs}, or {@code null} when ours is absent
 */
public record CrossCheckValue(Long oursNs, long theirsNs, Long diffNs) implements java.io.Serializable {
    public static CrossCheckValue of(Long ours, long theirs) {
        return new CrossCheckValue(ours, theirs, ours == null ? null : ours - theirs);
    }
}
