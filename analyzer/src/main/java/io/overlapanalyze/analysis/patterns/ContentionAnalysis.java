package io.overlapanalyze.analysis.patterns;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.analysis.ExactMedian;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.KernelShape;
import io.overlapanalyze.report.ContentionReport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compute slowdown under overlap (metrics.md §9): does a kernel run longer while communication
 * runs next to it (shared SMs, memory bandwidth, NVLink/PCIe copy engines)?
 *
 * <ul>
 *   <li>Per compute kernel instance of the aggregated steps, its overlap with C (union of the
 *       step's COMM intervals). <b>Overlapped</b>: at least half its duration under
 *       communication; <b>isolated</b>: none at all. Instances in between are left out: their
 *       duration mixes both regimes and would blur the medians.</li>
 *   <li>Instances are grouped by kernel name <b>and launch shape</b> (grid and block, where the
 *       trace gives them): one GEMM name runs several matrix sizes, whose durations are not
 *       comparable, and one shape may be slower under overlap while another is faster. Without a
 *       shape the name alone groups.</li>
 *   <li>A group is reported when it has at least {@link #MIN_INSTANCES} instances on each side;
 *       medians are exact (even count: mean of the middle two, floored).</li>
 *   <li>{@code slowdownPct = (overlappedMedian − isolatedMedian) / isolatedMedian × 100};
 *       {@code extraPerStepNs = (overlappedMedian − isolatedMedian) × overlappedCount / steps}
 *       (floor), what the slowdown costs per step at the typical instance. A kernel faster under
 *       overlap has both negative and is flagged {@code fasterUnderOverlap}: the renderers say
 *       "faster", never a negative slowdown.</li>
 *   <li>Order: slower (or equal) groups by {@code extraPerStepNs}, largest first; then faster ones
 *       by their saving, largest first; ties by name, then shape.</li>
 *   <li>{@link Result#netExtraPerStepNs}: the sum of the rows' {@code extraPerStepNs} (slower minus
 *       faster), what contention costs a step net; {@code null} without rows.</li>
 * </ul>
 * Cost: per step, one merge of the sorted compute intervals against the runs of C; one map lookup
 * per classified instance.
 */
public final class ContentionAnalysis {
    /** Instances needed on each side before a median means anything. */
    public static final int MIN_INSTANCES = 5;

    /** Durations of one (name, shape) group: [0] overlapped, [1] isolated. */
    private static final class Group {
        final String name;
        final KernelShape shape;
        final long[][] lists = {new long[8], new long[8]};
        final int[] n = new int[2];

        Group(String name, KernelShape shape) {
            this.name = name;
            this.shape = shape;
        }

        void add(int side, long dur) {
            if (n[side] == lists[side].length) {
                lists[side] = Arrays.copyOf(lists[side], n[side] * 2);
            }
            lists[side][n[side]++] = dur;
        }
    }

    /** Groups by name id (high 32 bits) and shape id + 1 (low 32 bits, 0 = no shape). */
    private final Map<Long, Group> groups = new HashMap<>();
    private int steps;
    private boolean anyComm;
    private boolean anyCompute;

    /**
     * @param rows              reported kernels: slower ones most costly first, then faster ones
     * @param unavailable       why nothing is reported, or {@code null}
     * @param netExtraPerStepNs the rows' {@code extraPerStepNs} summed (slower minus faster), ns per
     *                          step; {@code null} when there is no row
     */
    public record Result(List<ContentionReport> rows, String unavailable, Long netExtraPerStepNs) {
        public Result {
            rows = List.copyOf(rows);
        }

        Result(List<ContentionReport> rows, String unavailable) {
            this(rows, unavailable, ContentionReport.netExtraPerStepNs(rows));
        }
    }

    /** Adds one aggregated step's kernels. */
    public void add(StepContext step) {
        steps++;
        DeviceIntervals dev = step.device();
        IntervalSet c = IntervalSet.unionOf(dev, step.comm());
        anyComm |= !c.isEmpty();
        int[] compute = step.compute();
        anyCompute |= compute.length > 0;
        int run = 0;
        for (int i : compute) { // sorted by start: the run pointer only moves forward
            long s = dev.start(i);
            long e = dev.end(i);
            while (run < c.size() && c.end(run) <= s) {
                run++;
            }
            long overlap = 0;
            for (int r = run; r < c.size() && c.start(r) < e; r++) {
                overlap += Math.min(e, c.end(r)) - Math.max(s, c.start(r));
            }
            long dur = e - s;
            int side;
            if (overlap == 0) {
                side = 1;
            } else if (2 * overlap >= dur) {
                side = 0;
            } else {
                continue;
            }
            int shapeId = dev.shapeId(i);
            long key = ((long) dev.nameId(i) << 32) | (shapeId + 1L);
            Group g = groups.get(key);
            if (g == null) {
                g = new Group(dev.name(i), shapeId < 0 ? null : dev.shapeOf(shapeId));
                groups.put(key, g);
            }
            g.add(side, dur);
        }
    }

    public Result finish() {
        if (steps == 0) {
            return new Result(List.of(), "no complete step with device work");
        }
        if (!anyComm) {
            return new Result(List.of(), "no communication in the analysed steps: nothing can overlap");
        }
        if (!anyCompute) {
            return new Result(List.of(), "no compute kernels in the analysed steps");
        }
        List<ContentionReport> rows = new ArrayList<>();
        for (Group g : groups.values()) {
            if (g.n[0] < MIN_INSTANCES || g.n[1] < MIN_INSTANCES) {
                continue;
            }
            long om = ExactMedian.of(g.lists[0], g.n[0]);
            long im = ExactMedian.of(g.lists[1], g.n[1]);
            double pct = im == 0 ? 0.0 : (double) (om - im) * 100.0 / (double) im;
            long extra = Math.floorDiv(Math.multiplyExact(om - im, (long) g.n[0]), (long) steps);
            KernelShape sh = g.shape;
            rows.add(new ContentionReport(g.name, g.n[0], g.n[1], om, im, pct, extra,
                    sh == null ? null : List.of(sh.gridX(), sh.gridY(), sh.gridZ()),
                    sh == null ? null : List.of(sh.blockX(), sh.blockY(), sh.blockZ()), om < im));
        }
        if (rows.isEmpty()) {
            return new Result(List.of(), "no kernel (name and launch shape) has " + MIN_INSTANCES
                    + " or more instances both overlapping communication and isolated");
        }
        rows.sort(ORDER);
        return new Result(rows, null);
    }

    /** Slower (or equal) first, most costly first; then faster, largest saving first; ties by name, shape. */
    static final Comparator<ContentionReport> ORDER = Comparator
            .comparing(ContentionReport::fasterUnderOverlap)
            .thenComparingLong(r -> r.fasterUnderOverlap() ? r.extraPerStepNs() : -r.extraPerStepNs())
            .thenComparing(ContentionReport::kernel)
            .thenComparing(r -> r.shapeText() == null ? "" : r.shapeText());
}
