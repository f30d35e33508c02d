package io.overlapanalyze.analysis.beyond;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.model.DeviceIntervals;
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
 *   <li>A kernel name is reported when it has at least {@link #MIN_INSTANCES} instances on each
 *       side; medians are exact (even count: mean of the middle two, floored).</li>
 *   <li>{@code slowdownPct = (overlappedMedian − isolatedMedian) / isolatedMedian × 100};
 *       {@code extraPerStepNs = (overlappedMedian − isolatedMedian) × overlappedCount / steps}
 *       (floor), what the slowdown costs per step at the typical instance. Negative when the
 *       kernel is faster under overlap (it is then listed, ranked last).</li>
 *   <li>Ranked by {@code extraPerStepNs}, largest first; ties by name.</li>
 * </ul>
 * Cost: per step, one merge of the sorted compute intervals against the runs of C.
 */
public final class ContentionAnalysis {
    /** Instances needed on each side before a median means anything. */
    public static final int MIN_INSTANCES = 5;

    private final Map<Integer, long[][]> byName = new HashMap<>();
    private final Map<Integer, int[]> counts = new HashMap<>();
    private final Map<Integer, String> names = new HashMap<>();
    private int steps;
    private boolean anyComm;
    private boolean anyCompute;

    /**
     * @param rows      reported kernels, most costly first
     * @param unavailable why nothing is reported, or {@code null}
     */
    public record Result(List<ContentionReport> rows, String unavailable) {
        public Result {
            rows = List.copyOf(rows);
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
            int name = dev.nameId(i);
            names.putIfAbsent(name, dev.name(i));
            long[][] lists = byName.computeIfAbsent(name, k -> new long[][] {new long[8], new long[8]});
            int[] n = counts.computeIfAbsent(name, k -> new int[2]);
            if (n[side] == lists[side].length) {
                lists[side] = Arrays.copyOf(lists[side], n[side] * 2);
            }
            lists[side][n[side]++] = dur;
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
        for (Map.Entry<Integer, int[]> e : counts.entrySet()) {
            int[] n = e.getValue();
            if (n[0] < MIN_INSTANCES || n[1] < MIN_INSTANCES) {
                continue;
            }
            long[][] lists = byName.get(e.getKey());
            long om = Medians.of(lists[0], n[0]);
            long im = Medians.of(lists[1], n[1]);
            double pct = im == 0 ? 0.0 : (double) (om - im) * 100.0 / (double) im;
            long extra = Math.floorDiv(Math.multiplyExact(om - im, (long) n[0]), (long) steps);
            rows.add(new ContentionReport(names.get(e.getKey()), n[0], n[1], om, im, pct, extra));
        }
        if (rows.isEmpty()) {
            return new Result(List.of(), "no kernel name has " + MIN_INSTANCES
                    + " or more instances both overlapping communication and isolated");
        }
        rows.sort(Comparator.comparingLong(ContentionReport::extraPerStepNs).reversed()
                .thenComparing(ContentionReport::kernel));
        return new Result(rows, null);
    }
}
