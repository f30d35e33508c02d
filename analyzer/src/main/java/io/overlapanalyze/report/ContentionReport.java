package io.overlapanalyze.report;

import java.util.List;

/**
 * Compute slowdown under overlap for one kernel name and launch shape (metrics.md §9). JSON names
 * are a contract.
 *
 * @param kernel             kernel name (as the trace gives it: Kineto's mangled {@code _Z…}
 *                           names stay mangled, no demangler is used)
 * @param overlappedCount    instances that ran at least half their time under communication
 * @param isolatedCount      instances that never overlapped communication
 * @param overlappedMedianNs median duration of the overlapped instances
 * @param isolatedMedianNs   median duration of the isolated instances
 * @param slowdownPct        {@code (overlappedMedian − isolatedMedian) / isolatedMedian × 100};
 *                           negative for a kernel faster under overlap (see {@code fasterUnderOverlap})
 * @param extraPerStepNs     {@code (overlappedMedian − isolatedMedian) × overlappedCount / steps}
 *                           (floor): what the slowdown costs a step; negative when the kernel is
 *                           faster under overlap (what it saves a step)
 * @param grid               launch grid {@code [x, y, z]}, {@code null} when the trace does not give it
 * @param block              launch block {@code [x, y, z]}, {@code null} when the trace does not give it
 * @param fasterUnderOverlap the overlapped median is below the isolated one: the kernel ran faster
 *                           under communication (reported as such, never as a slowdown); always
 *                           derived from the medians, whatever is passed
 */
public record ContentionReport(String kernel, int overlappedCount, int isolatedCount, long overlappedMedianNs,
                               long isolatedMedianNs, double slowdownPct, long extraPerStepNs, List<Integer> grid,
                               List<Integer> block, boolean fasterUnderOverlap)
                                       implements java.io.Serializable {
    public ContentionReport {
        // Derived, so that it always agrees with the medians (and a report written before the flag
        // existed reads with the right value).
        fasterUnderOverlap = overlappedMedianNs < isolatedMedianNs;
        grid = grid == null ? null : List.copyOf(grid);
        block = block == null ? null : List.copyOf(block);
    }

    /**
     * A row without a launch shape; faster when the overlapped median is the smaller. (A factory,
     * not a second constructor: JSON reads a record through its one canonical constructor.)
     */
    public static ContentionReport withoutShape(String kernel, int overlappedCount, int isolatedCount,
                                                long overlappedMedianNs, long isolatedMedianNs, double slowdownPct,
                                                long extraPerStepNs) {
        return new ContentionReport(kernel, overlappedCount, isolatedCount, overlappedMedianNs, isolatedMedianNs,
                slowdownPct, extraPerStepNs, null, null, overlappedMedianNs < isolatedMedianNs);
    }

    /** {@code grid=[132,1,1] block=[128,1,1]}, or {@code null} without a shape (renderers show it). */
    public String shapeText() {
        if (grid == null && block == null) {
            return null;
        }
        return (grid == null ? "" : "grid=" + dims(grid)) + (grid != null && block != null ? " " : "")
                + (block == null ? "" : "block=" + dims(block));
    }

    private static String dims(List<Integer> d) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < d.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(d.get(i));
        }
        return sb.append(']').toString();
    }

    /**
     * The net extra time per step of {@code rows} (slower rows' extra minus faster rows' saving):
     * the sum of their {@code extraPerStepNs}; {@code null} when there is no row (nothing measured,
     * not a zero).
     */
    public static Long netExtraPerStepNs(List<ContentionReport> rows) {
        if (rows == null || rows.isEmpty()) {
            return null;
        }
        long net = 0;
        for (ContentionReport r : rows) {
            net = Math.addExact(net, r.extraPerStepNs());
        }
        return net;
    }
}
