package io.overlapanalyze.whatif;

import java.util.List;

/**
 * One training step reduced to what the ideal two-engine replay needs, on a clock where 0 is the
 * step's first device activity.
 *
 * <ul>
 *   <li>{@code compute}: compute that does not wait for the reductions (forward, backward). It
 *       stays where it was: the replay changes communication only.</li>
 *   <li>{@code backwardCompute}: the part of it that counts for {@code lastComputeEnd}
 *       (metrics.md §4); equal to {@code compute} when phases are unknown.</li>
 *   <li>{@code units}: gradient production, in order (see {@link GradUnit}).</li>
 *   <li>{@code buckets}: the buckets as measured (or as the scenario says), in issue order.</li>
 *   <li>{@code afterReductions}: compute that waits for every reduction (the optimizer, DDP's
 *       copy-back), as offsets from the anchor {@code max(last reduce end, end of compute)}; the
 *       replay moves it with its anchor.</li>
 * </ul>
 *
 * @param stepName step this came from ("scenario" for a scenario)
 */
public record Workload(String stepName, List<Span> compute, List<Span> backwardCompute, List<GradUnit> units,
                       List<ReplayBucket> buckets, List<Span> afterReductions) {
    public Workload {
        compute = List.copyOf(compute);
        backwardCompute = List.copyOf(backwardCompute);
        units = List.copyOf(units);
        buckets = List.copyOf(buckets);
        afterReductions = List.copyOf(afterReductions);
    }

    /** Latest end of the compute that does not wait for reductions (0 when none). */
    public long computeEndNs() {
        long end = 0;
        for (Span s : compute) {
            end = Math.max(end, s.endNs());
        }
        return end;
    }

    /** Total gradient bytes. */
    public long gradBytes() {
        return buckets.stream().mapToLong(ReplayBucket::bytes).sum();
    }
}
