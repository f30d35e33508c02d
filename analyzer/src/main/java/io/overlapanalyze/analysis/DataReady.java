package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * When a collective's input was complete on the device (metrics.md §4, {@code firstBucketReady};
 * also {@code lastBucketReady} and the DATA candidate of §6). Three rules, the first that applies:
 *
 * <ol>
 *   <li><b>Explicit dependency</b> (the trace has stream waits, {@link io.overlapanalyze.model.StreamWait}).
 *       Before launching a collective's kernel on its comm stream, ProcessGroupNCCL records an
 *       event on the producing (current) stream ({@code cudaEventRecord}) and makes the comm stream
 *       wait for it ({@code cudaStreamWaitEvent}). The recorded event completes when all work
 *       submitted to the recorded stream before the record call has finished; the collective's
 *       kernel, queued behind the wait, cannot start earlier. So, for a collective {@code g} whose
 *       first kernel is on lane {@code L} and was launched at host time {@code t}:
 *       <ul>
 *         <li>{@code g}'s waits are those submitted to {@code L} before {@code t} and after the
 *             previous COMM kernel launched on {@code L} (and inside the step's host span): a
 *             stream runs its work in submission order, so a wait submitted between two launches
 *             gates the later one. The order is the host submission order
 *             ({@code cudaStreamWaitEvent} call vs. kernel launch), not the time the trace draws
 *             the wait at: CUPTI stamps synchronization records with the API call's times.
 *             Holistic Trace Analysis' critical path matches waits the same way (the next
 *             launch on the waiting stream after the wait call).</li>
 *         <li>Each such wait with a known recorded lane and record time contributes the latest
 *             device end among the step's COMPUTE intervals on the recorded lane whose host launch
 *             is strictly before the {@code cudaEventRecord} call (sorted by launch, running max,
 *             binary search). Data-ready is the latest contribution.</li>
 *         <li>Only COMPUTE kernels count (the contract's "compute kernel that g depends on"), and
 *             only one hop: a recorded stream that itself waited on a third stream is not
 *             followed.</li>
 *       </ul>
 *       When no wait qualifies (none before the launch, record unknown, the kernel's launch
 *       unknown, or the recorded lane has no compute of the step launched before the record,
 *       e.g. a dependency through a side stream), the rules below apply to that collective.</li>
 *   <li><b>Launch order</b> (host launch data): the latest device end among the step's COMPUTE
 *       kernels whose host launch is strictly before the collective's enqueue (PyTorch issues a
 *       bucket's all-reduce after the kernels that produce it were launched). It can be too late:
 *       a kernel launched after the producer but before a late enqueue counts although the
 *       collective never waited for it; the explicit rule does not have that error.</li>
 *   <li><b>Device order</b> (enqueue unknown, or no compute kernel of the step has a launch
 *       time): the latest compute end at or before the collective's device start, flagged
 *       approximate.</li>
 * </ol>
 * Scope: compute kernels of the same step only. A bucket's gradients are produced in its own
 * step's backward pass; the previous step's kernels all ended long before and cannot be later
 * than the latest of this step's.
 *
 * <p>Which rule served which collective is counted ({@link #explicitCount()},
 * {@link #fallbackWithWaitsCount()}) so the step can say so in a note.
 *
 * <p>Cost: O(k log k) to build per step, O(log k) per query for the fallbacks; the explicit rule
 * adds a lazy O(k log k) index per lane it touches and O(log w + waits of g) per query.
 */
public final class DataReady {
    /**
     * @param readyNs     the data-ready time, or {@link Time#UNKNOWN} when no compute qualifies
     * @param approximate true when the no-launch-data fallback was used
     * @param explicit    true when an explicit stream-wait dependency gave the time
     */
    public record Ready(long readyNs, boolean approximate, boolean explicit) {
        public Ready(long readyNs, boolean approximate) {
            this(readyNs, approximate, false);
        }

        public boolean known() {
            return Time.isKnown(readyNs);
        }

        public Long orNull() {
            return known() ? readyNs : null;
        }
    }

    /** Compute of one lane (or all lanes) sorted by host launch, with the running max of device end. */
    private record ByLaunch(long[] launch, long[] maxEnd) {
        /** Latest end among those launched strictly before {@code t}, or {@link Time#UNKNOWN}. */
        long latestEndLaunchedBefore(long t) {
            if (launch.length == 0) {
                return Time.UNKNOWN;
            }
            int j = SortedSearch.lastAtOrBefore(launch, launch.length, t - 1);
            return j >= 0 ? maxEnd[j] : Time.UNKNOWN;
        }
    }

    private final StepContext step;
    private final StreamWaitIndex waits;
    /** All compute of the step with a known launch. */
    private final ByLaunch computeByLaunch;
    /** Device ends of all compute, ascending. */
    private final long[] endsSorted;
    private final Map<Integer, ByLaunch> computeOnLane = new HashMap<>();
    private final Map<Integer, long[]> commLaunchesOnLane = new HashMap<>();
    private final Set<Integer> explicitIds = new HashSet<>();
    private final Set<Integer> fallbackIds = new HashSet<>();

    /** Data-ready for one step, with the trace's stream waits indexed on the spot (tests, one-offs). */
    public DataReady(StepContext step) {
        this(step, StreamWaitIndex.of(step.trace()));
    }

    /** Data-ready for one step; {@code waits} is the trace's index, built once per rank. */
    public DataReady(StepContext step, StreamWaitIndex waits) {
        this.step = step;
        this.waits = waits;
        DeviceIntervals dev = step.device();
        int[] compute = step.compute();
        computeByLaunch = byLaunch(dev, compute, -1);
        endsSorted = new long[compute.length];
        for (int j = 0; j < compute.length; j++) {
            endsSorted[j] = dev.end(compute[j]);
        }
        Arrays.sort(endsSorted);
    }

    public Ready readyFor(CollectiveSpan collective) {
        if (!waits.isEmpty()) {
            Ready explicit = explicitReady(collective);
            if (explicit != null) {
                explicitIds.add(collective.id());
                return explicit;
            }
            fallbackIds.add(collective.id());
        }
        if (Time.isKnown(collective.enqueueNs()) && computeByLaunch.launch().length > 0) {
            return new Ready(computeByLaunch.latestEndLaunchedBefore(collective.enqueueNs()), false);
        }
        if (endsSorted.length == 0) {
            return new Ready(Time.UNKNOWN, false);
        }
        int j = SortedSearch.lastAtOrBefore(endsSorted, endsSorted.length, collective.startNs());
        return new Ready(j >= 0 ? endsSorted[j] : Time.UNKNOWN, true);
    }

    /** Collectives queried so far whose data-ready came from an explicit dependency. */
    public int explicitCount() {
        return explicitIds.size();
    }

    /** Collectives queried so far that fell back to launch/device order although the trace has stream waits. */
    public int fallbackWithWaitsCount() {
        return fallbackIds.size();
    }

    /** The explicit rule (class comment, rule 1), or {@code null} when no wait qualifies. */
    private Ready explicitReady(CollectiveSpan g) {
        DeviceIntervals dev = step.device();
        long launch = dev.launchNs(g.intervals()[0]);
        StreamWaitIndex.LaneWaits lane = waits.onLane(g.lane());
        if (!Time.isKnown(launch) || lane == null) {
            return null;
        }
        long after = previousSubmission(g.lane(), launch);
        long best = Time.UNKNOWN;
        int j = SortedSearch.lastAtOrBefore(lane.submitNs(), lane.size(), launch - 1);
        for (; j >= 0 && lane.submitNs()[j] > after; j--) {
            long end = computeOn(lane.recordedLane()[j]).latestEndLaunchedBefore(lane.recordHostNs()[j]);
            if (Time.isKnown(end) && (!Time.isKnown(best) || end > best)) {
                best = end;
            }
        }
        return Time.isKnown(best) ? new Ready(best, false, true) : null;
    }

    /**
     * The host time after which a wait on {@code lane} can only gate work launched at
     * {@code launch}: the latest launch of a COMM interval of the step on that lane strictly before
     * it, or the step's host start; {@link Time#UNKNOWN} (no bound) when neither is known.
     */
    private long previousSubmission(int lane, long launch) {
        long[] launches = commLaunchesOnLane.computeIfAbsent(lane, this::commLaunches);
        int j = SortedSearch.lastAtOrBefore(launches, launches.length, launch - 1);
        long bound = j >= 0 ? launches[j] : Time.UNKNOWN;
        long stepStart = step.step().hostStartNs();
        if (Time.isKnown(stepStart) && (!Time.isKnown(bound) || stepStart > bound)) {
            bound = stepStart;
        }
        return bound;
    }

    private long[] commLaunches(int lane) {
        DeviceIntervals dev = step.device();
        int[] comm = step.commOnLane(lane);
        long[] out = new long[comm.length];
        int n = 0;
        for (int i : comm) {
            if (Time.isKnown(dev.launchNs(i))) {
                out[n++] = dev.launchNs(i);
            }
        }
        out = Arrays.copyOf(out, n);
        Arrays.sort(out);
        return out;
    }

    private ByLaunch computeOn(int lane) {
        return computeOnLane.computeIfAbsent(lane, l -> byLaunch(step.device(), step.compute(), l));
    }

    /** COMPUTE intervals with a known launch (on {@code lane}, or all when -1), by launch, running max end. */
    private static ByLaunch byLaunch(DeviceIntervals dev, int[] compute, int lane) {
        int known = 0;
        for (int i : compute) {
            if (Time.isKnown(dev.launchNs(i)) && (lane < 0 || dev.lane(i) == lane)) {
                known++;
            }
        }
        long[] launches = new long[known];
        long[] ends = new long[known];
        int k = 0;
        for (int i : compute) {
            if (Time.isKnown(dev.launchNs(i)) && (lane < 0 || dev.lane(i) == lane)) {
                launches[k] = dev.launchNs(i);
                ends[k] = dev.end(i);
                k++;
            }
        }
        int[] order = PrimitiveSort.indexesSortedBy(launches, known);
        long[] launchSorted = new long[known];
        long[] maxEnd = new long[known];
        long runningMax = Long.MIN_VALUE;
        for (int j = 0; j < known; j++) {
            launchSorted[j] = launches[order[j]];
            runningMax = Math.max(runningMax, ends[order[j]]);
            maxEnd[j] = runningMax;
        }
        return new ByLaunch(launchSorted, maxEnd);
    }
}
