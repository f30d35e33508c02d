package io.overlapanalyze.analysis.patterns;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.StreamWait;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;
import io.overlapanalyze.report.PrefetchReport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * FSDP / ZeRO parameter prefetch. A layer cannot run before the all-gather of its
 * parameters has finished; prefetching issues that all-gather while the previous layer computes,
 * and it is late when it ends after the compute stream ran out of earlier work. For every
 * all-gather of a step:
 *
 * <ol>
 *   <li><b>Consumer, explicit</b> (the trace has stream waits): FSDP makes the compute stream wait
 *       for an event recorded on the all-gather's stream after the all-gather was launched. The
 *       all-gather a record captures is the last COMM work launched on that lane before the
 *       record call. Its consumer is the first COMPUTE kernel launched on the waiting lane at or
 *       after the earliest such wait's submission (stream order is submission order, as in
 *       {@code DataReady}). Rule {@code STREAM_WAIT}.</li>
 *   <li><b>Consumer, device order</b> (no usable wait): the first COMPUTE kernel of the step that
 *       starts at or after the all-gather's end and was launched at or after its enqueue (or has
 *       no launch time). A consumer cannot start before its input exists, so the real consumer is
 *       never earlier than this kernel; when the all-gather ended in the middle of earlier work,
 *       this kernel may be that earlier work's next kernel, which then shows no wait, the right
 *       exposure with the wrong name. Rule {@code DEVICE_ORDER}, approximate.</li>
 *   <li>No such kernel in the step: consumer not identified (rule {@code NONE}); the all-gather
 *       is listed without wait.</li>
 * </ol>
 * Then {@code computeFree} = the latest end of compute kernels on the consumer's lane that start
 * before the consumer (the step's device start when there are none): from then on the stream had
 * nothing else to do. {@code late = max(0, agEnd − computeFree)},
 * {@code wait = max(0, min(consumerStart, agEnd) − computeFree)} (idle after the all-gather
 * ended is the host's, not the all-gather's). {@code exposedPrefetch} of the step is the length
 * of the union of the wait intervals {@code [computeFree, min(consumerStart, agEnd))}, so two
 * all-gathers holding up the same kernel count once.
 */
public final class PrefetchAnalysis {
    public static final String RULE_STREAM_WAIT = "STREAM_WAIT";
    public static final String RULE_DEVICE_ORDER = "DEVICE_ORDER";
    public static final String RULE_NONE = "NONE";

    /**
     * @param exposedPrefetchNs union of the waits; {@code null} when the step has no all-gather
     * @param prefetches        the all-gathers by device start
     * @param unidentified      all-gathers without an identified consumer
     */
    public record Result(Long exposedPrefetchNs, List<PrefetchReport> prefetches, int unidentified) {
    }

    private final StepContext step;
    private final DeviceIntervals dev;
    private final List<StreamWait> waits;
    /** Compute on one lane sorted by start, with the running max of ends (for computeFree). */
    private final Map<Integer, long[][]> laneByStart = new HashMap<>();
    /** Compute on one lane sorted by launch (for the explicit consumer). */
    private final Map<Integer, int[]> laneByLaunch = new HashMap<>();

    private PrefetchAnalysis(StepContext step) {
        this.step = step;
        this.dev = step.device();
        this.waits = step.trace().streamWaits();
    }

    public static Result analyze(StepContext step) {
        return new PrefetchAnalysis(step).run();
    }

    private Result run() {
        List<CollectiveSpan> gathers = new ArrayList<>();
        for (CollectiveSpan c : step.collectives()) {
            if (c.collective().type() == CollectiveType.ALL_GATHER) {
                gathers.add(c);
            }
        }
        if (gathers.isEmpty()) {
            return new Result(null, List.of(), 0);
        }
        long windowStart = step.windowStartNs(); // sync rows (host time) excluded, as for the step's window
        IntervalSet.Builder exposed = IntervalSet.builder();
        List<PrefetchReport> out = new ArrayList<>(gathers.size());
        int unidentified = 0;
        for (CollectiveSpan g : gathers) {
            String rule = RULE_STREAM_WAIT;
            int consumer = explicitConsumer(g);
            if (consumer < 0) {
                rule = RULE_DEVICE_ORDER;
                consumer = deviceOrderConsumer(g);
            }
            long bytes = g.collective().bytes();
            if (consumer < 0) {
                unidentified++;
                out.add(new PrefetchReport(g.id(), g.phase().name(), bytes >= 0 ? bytes : null, g.startNs(), g.endNs(),
                        null, null, null, null, null, RULE_NONE));
                continue;
            }
            long cStart = dev.start(consumer);
            long free = computeFree(dev.lane(consumer), cStart, windowStart);
            long late = Math.max(0, g.endNs() - free);
            long waitEnd = Math.min(cStart, g.endNs());
            long wait = Math.max(0, waitEnd - free);
            if (wait > 0) {
                exposed.add(free, waitEnd);
            }
            out.add(new PrefetchReport(g.id(), g.phase().name(), bytes >= 0 ? bytes : null, g.startNs(), g.endNs(),
                    dev.name(consumer), cStart, free, late, wait, rule));
        }
        return new Result(exposed.build().length(), out, unidentified);
    }

    /** Rule 1: the first compute launched on a lane that waited for this all-gather; -1 when none. */
    private int explicitConsumer(CollectiveSpan g) {
        if (waits.isEmpty()) {
            return -1;
        }
        long launch = dev.launchNs(g.intervals()[0]);
        if (!Time.isKnown(launch)) {
            return -1;
        }
        long nextLaunch = nextCommLaunch(g.lane(), launch);
        StreamWait best = null;
        for (StreamWait w : waits) {
            // Waits are few (one or two per collective): a scan per all-gather is cheap.
            if (w.recordedLane() != g.lane() || w.waitingLane() == g.lane() || !w.recordKnown()) {
                continue;
            }
            if (w.recordHostNs() <= launch || w.recordHostNs() > nextLaunch) {
                continue;
            }
            long submit = Time.isKnown(w.submitNs()) ? w.submitNs() : w.waitNs();
            long bestSubmit = best == null ? Long.MAX_VALUE
                    : Time.isKnown(best.submitNs()) ? best.submitNs() : best.waitNs();
            if (submit < bestSubmit) {
                best = w;
            }
        }
        if (best == null) {
            return -1;
        }
        long submit = Time.isKnown(best.submitNs()) ? best.submitNs() : best.waitNs();
        int[] byLaunch = laneByLaunch.computeIfAbsent(best.waitingLane(), this::computeOnLaneByLaunch);
        for (int i : byLaunch) {
            if (dev.launchNs(i) >= submit) {
                return i;
            }
        }
        return -1;
    }

    /** Host launch of the next COMM interval on {@code lane} after {@code launch}; MAX_VALUE when none. */
    private long nextCommLaunch(int lane, long launch) {
        long next = Long.MAX_VALUE;
        for (int i : step.commOnLane(lane)) {
            long l = dev.launchNs(i);
            if (Time.isKnown(l) && l > launch && l < next) {
                next = l;
            }
        }
        return next;
    }

    /** Rule 2: first compute starting at or after the all-gather's end, launched at or after its enqueue. */
    private int deviceOrderConsumer(CollectiveSpan g) {
        int[] compute = step.compute();
        int lo = 0;
        int hi = compute.length;
        while (lo < hi) { // first compute with start >= g.end (compute is sorted by start)
            int mid = (lo + hi) >>> 1;
            if (dev.start(compute[mid]) < g.endNs()) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int k = lo; k < compute.length; k++) {
            long l = dev.launchNs(compute[k]);
            if (!Time.isKnown(l) || !Time.isKnown(g.enqueueNs()) || l >= g.enqueueNs()) {
                return compute[k];
            }
        }
        return -1;
    }

    /** Latest end of compute on {@code lane} starting before {@code before}; {@code fallback} when none. */
    private long computeFree(int lane, long before, long fallback) {
        long[][] idx = laneByStart.computeIfAbsent(lane, this::computeOnLaneByStart);
        long[] starts = idx[0];
        long[] maxEnd = idx[1];
        int lo = SortedSearch.firstAtOrAfter(starts, before);
        return lo == 0 ? fallback : maxEnd[lo - 1];
    }

    private long[][] computeOnLaneByStart(int lane) {
        int[] compute = step.compute();
        long[] starts = new long[compute.length];
        long[] maxEnd = new long[compute.length];
        int n = 0;
        long running = Long.MIN_VALUE;
        for (int i : compute) { // already sorted by start
            if (dev.lane(i) == lane) {
                starts[n] = dev.start(i);
                running = Math.max(running, dev.end(i));
                maxEnd[n] = running;
                n++;
            }
        }
        return new long[][] {Arrays.copyOf(starts, n), Arrays.copyOf(maxEnd, n)};
    }

    private int[] computeOnLaneByLaunch(int lane) {
        int[] compute = step.compute();
        int n = 0;
        long[] launches = new long[compute.length];
        int[] members = new int[compute.length];
        for (int i : compute) {
            if (dev.lane(i) == lane && Time.isKnown(dev.launchNs(i))) {
                launches[n] = dev.launchNs(i);
                members[n] = i;
                n++;
            }
        }
        int[] order = PrimitiveSort.indexesSortedBy(launches, n);
        int[] out = new int[n];
        for (int j = 0; j < n; j++) {
            out[j] = members[order[j]];
        }
        return out;
    }
}
