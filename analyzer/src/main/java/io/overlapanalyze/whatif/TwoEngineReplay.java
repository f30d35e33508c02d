package io.overlapanalyze.whatif;

import io.overlapanalyze.analysis.IntervalSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The ideal two-engine timeline: one compute engine that runs the step's compute exactly where it
 * ran, one communication engine that runs the gradient reductions in issue order, each starting
 * as soon as its data is ready and the engine is free ({@code start = max(ready, previous end)}).
 * No launch delays, no peers to wait for: the best this bucketing can do on this interconnect.
 *
 * <p>The numbers follow metrics.md §4–5 on the replayed timeline: step time from 0 to the last
 * end, {@code tail = max(0, last reduce end − last backward compute end)} (backward compute
 * starting before the last reduce end), exposed communication {@code |C − K|}, and the serial
 * estimate {@code |K| + Σ comm}. Compute that waits for the reductions moves with them.
 */
public final class TwoEngineReplay {

    /** One replayed reduction. */
    public record ReplayedBucket(long readyNs, long bytes, long startNs, long endNs) {
    }

    /**
     * The replayed step.
     *
     * @param firstBucketReadyNs data-ready time of the first reduction ({@code -1} without reductions)
     * @param compute            the compute engine's busy time, merged
     * @param comm               the reductions in issue order
     */
    public record Result(long stepTimeNs, long tailNs, long exposedCommNs, long serialNs, long commBusyNs,
                         long computeBusyNs, long firstBucketReadyNs, long lastComputeEndNs, long lastReduceEndNs,
                         long largestBucketBytes, List<Span> compute, List<ReplayedBucket> comm) {
        public Result {
            compute = List.copyOf(compute);
            comm = List.copyOf(comm);
        }

        public int buckets() {
            return comm.size();
        }
    }

    private TwoEngineReplay() {
    }

    /**
     * Replays {@code buckets} (issue order) against the workload's compute. A bucket with
     * {@code commNs < 0} takes its time from {@code model}; {@code model} may be {@code null} when
     * every bucket carries its own time.
     */
    public static Result replay(Workload w, List<ReplayBucket> buckets, CostModel model) {
        List<ReplayedBucket> comm = new ArrayList<>(buckets.size());
        long commFree = Long.MIN_VALUE;
        long commBusy = 0;
        long largest = 0;
        IntervalSet.Builder c = IntervalSet.builder();
        for (ReplayBucket b : buckets) {
            long duration = b.commNs() >= 0 ? b.commNs() : model.timeNs(b.bytes());
            long start = Math.max(b.readyNs(), commFree);
            long end = start + duration;
            commFree = end;
            commBusy += duration;
            largest = Math.max(largest, b.bytes());
            comm.add(new ReplayedBucket(b.readyNs(), b.bytes(), start, end));
            c.add(start, end);
        }
        long computeEnd = w.computeEndNs();
        long lastReduceEnd = comm.isEmpty() ? -1 : commFree;
        long lastComputeEnd = 0;
        for (Span s : w.backwardCompute()) {
            if (comm.isEmpty() || s.startNs() < lastReduceEnd) {
                lastComputeEnd = Math.max(lastComputeEnd, s.endNs());
            }
        }
        long anchor = Math.max(computeEnd, lastReduceEnd);
        IntervalSet.Builder k = IntervalSet.builder();
        long stepEnd = Math.max(computeEnd, lastReduceEnd);
        for (Span s : w.compute()) {
            k.add(s.startNs(), s.endNs());
        }
        for (Span offset : w.afterReductions()) {
            Span s = offset.shift(anchor);
            k.add(s.startNs(), s.endNs());
            stepEnd = Math.max(stepEnd, s.endNs());
        }
        IntervalSet computeSet = k.build();
        IntervalSet commSet = c.build();
        long exposed = commSet.subtract(computeSet).length();
        long tail = comm.isEmpty() ? 0 : Math.max(0, lastReduceEnd - lastComputeEnd);
        List<Span> merged = new ArrayList<>(computeSet.size());
        for (int i = 0; i < computeSet.size(); i++) {
            merged.add(new Span(computeSet.start(i), computeSet.end(i)));
        }
        return new Result(stepEnd, tail, exposed, computeSet.length() + commBusy, commBusy, computeSet.length(),
                comm.isEmpty() ? -1 : comm.get(0).readyNs(), lastComputeEnd, lastReduceEnd, largest, merged, comm);
    }
}
