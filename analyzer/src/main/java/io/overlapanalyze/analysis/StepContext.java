package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.report.Phase;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One step's device work, indexed once for every per-step analysis: intervals by kind (each list
 * sorted by device start), the phase of each interval, the collectives that have device work in
 * the step, and the COMM intervals of each lane (for the QUEUE reason of metrics.md §6).
 */
public final class StepContext {
    private final RankTrace trace;
    private final StepAssigner.Step step;
    private final int[] compute;
    private final int[] comm;
    private final int[] memory;
    private final int[] fused;
    private final Phase[] computePhases;
    private final List<CollectiveSpan> collectives;
    private final Map<Integer, CollectiveSpan> collectiveById;
    private final Map<Integer, int[]> commByLane;
    private final long windowStartNs;
    private final long windowEndNs;

    /**
     * A collective as seen in one step.
     *
     * @param collective its model record
     * @param startNs    device start of its first interval in the step
     * @param endNs      latest device end of its intervals in the step
     * @param lane       lane of its first interval (the comm lane it queues on)
     * @param intervals  its interval indexes in the step, by start
     * @param enqueueNs  host enqueue time; without one, the host launch of its first kernel;
     *                   {@link Time#UNKNOWN} when neither is known
     * @param phase      phase of its enqueue (metrics.md §3 "enqueued during BACKWARD")
     */
    public record CollectiveSpan(Collective collective, long startNs, long endNs, int lane, int[] intervals,
                                 long enqueueNs, Phase phase) {
        public int id() {
            return collective.id();
        }

        public long durationNs() {
            return endNs - startNs;
        }
    }

    public StepContext(RankTrace trace, StepAssigner.Step step, PhaseClassifier phases) {
        this.trace = trace;
        this.step = step;
        DeviceIntervals dev = trace.device();
        int[] all = step.intervals();
        IntList computeList = new IntList(8);
        IntList commList = new IntList(8);
        IntList memoryList = new IntList(8);
        IntList fusedList = new IntList(8);
        Map<Integer, IntList> laneLists = new HashMap<>();
        Map<Integer, IntList> byCollective = new LinkedHashMap<>();
        long windowStart = Long.MAX_VALUE;
        long windowEnd = Long.MIN_VALUE;
        for (int i : all) {
            DeviceKind kind = dev.kind(i);
            if (kind != DeviceKind.SYNC) {
                // cuda_sync rows carry the host call's time, not device time (metrics.md §1).
                windowStart = Math.min(windowStart, dev.start(i));
                windowEnd = Math.max(windowEnd, dev.end(i));
            }
            switch (kind) {
                case COMPUTE -> computeList.add(i);
                case COMM -> {
                    commList.add(i);
                    laneLists.computeIfAbsent(dev.lane(i), l -> new IntList(8)).add(i);
                }
                case MEMCPY, MEMSET -> memoryList.add(i);
                case FUSED -> fusedList.add(i);
                default -> {
                    // SYNC and OTHER are neither compute nor communication (metrics.md §1).
                }
            }
            int c = dev.collective(i);
            if (c >= 0 && c < trace.collectives().size()) {
                byCollective.computeIfAbsent(c, k -> new IntList(8)).add(i);
            }
        }
        this.windowStartNs = windowStart;
        this.windowEndNs = windowEnd;
        this.compute = computeList.toArray();
        this.comm = commList.toArray();
        this.memory = memoryList.toArray();
        this.fused = fusedList.toArray();
        this.computePhases = new Phase[compute.length];
        for (int k = 0; k < compute.length; k++) {
            computePhases[k] = phases.phaseOfInterval(dev, compute[k]);
        }
        Map<Integer, int[]> lanes = new HashMap<>();
        laneLists.forEach((lane, list) -> lanes.put(lane, list.toArray()));
        this.commByLane = lanes;

        List<CollectiveSpan> spans = new ArrayList<>(byCollective.size());
        Map<Integer, CollectiveSpan> byId = new HashMap<>();
        for (Map.Entry<Integer, IntList> e : byCollective.entrySet()) {
            Collective c = trace.collectives().get(e.getKey());
            int[] kernels = e.getValue().toArray(); // already in start order
            long start = dev.start(kernels[0]);
            long end = Long.MIN_VALUE;
            for (int k : kernels) {
                end = Math.max(end, dev.end(k));
            }
            long enqueue = c.enqueueNs();
            if (!Time.isKnown(enqueue)) {
                for (int k : kernels) {
                    if (Time.isKnown(dev.launchNs(k))) {
                        enqueue = dev.launchNs(k);
                        break;
                    }
                }
            }
            CollectiveSpan span = new CollectiveSpan(c, start, end, dev.lane(kernels[0]), kernels, enqueue,
                    phases.phaseOfCollective(c, dev));
            spans.add(span);
            byId.put(c.id(), span);
        }
        // Insertion order is first-interval order, i.e. device start order.
        this.collectives = Collections.unmodifiableList(spans);
        this.collectiveById = byId;
    }

    public RankTrace trace() {
        return trace;
    }

    public DeviceIntervals device() {
        return trace.device();
    }

    public StepAssigner.Step step() {
        return step;
    }

    /** All interval indexes of the step, by device start. */
    public int[] intervals() {
        return step.intervals();
    }

    /**
     * True when the step has device work that spans time: anything but synchronisation rows, whose
     * times are the host's (metrics.md §1), so that they never open or close a window.
     */
    public boolean hasDeviceWork() {
        return windowStartNs != Long.MAX_VALUE;
    }

    /** First device start of the step's work (SYNC excluded); meaningful only with {@link #hasDeviceWork}. */
    public long windowStartNs() {
        return windowStartNs;
    }

    /** Last device end of the step's work (SYNC excluded); meaningful only with {@link #hasDeviceWork}. */
    public long windowEndNs() {
        return windowEndNs;
    }

    /**
     * First device start of a step's work without building its context (SYNC excluded), or
     * {@code Long.MAX_VALUE} when it has none: the step periods need every step's start first.
     */
    static long windowStartOf(DeviceIntervals dev, int[] intervalsByStart) {
        for (int i : intervalsByStart) {
            if (dev.kind(i) != DeviceKind.SYNC) {
                return dev.start(i);
            }
        }
        return Long.MAX_VALUE;
    }

    /** COMPUTE intervals, by start. */
    public int[] compute() {
        return compute;
    }

    /** COMM intervals, by start. */
    public int[] comm() {
        return comm;
    }

    /** FUSED intervals (compute and communication inside one kernel), by start. */
    public int[] fused() {
        return fused;
    }

    /** MEMCPY and MEMSET intervals, by start. */
    public int[] memory() {
        return memory;
    }

    /** Phase of {@code compute()[position]}. */
    public Phase computePhase(int position) {
        return computePhases[position];
    }

    /** Collectives with device work in this step, by device start. */
    public List<CollectiveSpan> collectives() {
        return collectives;
    }

    /** The collective's view in this step, or {@code null} when it has no device work here. */
    public CollectiveSpan collective(int id) {
        return collectiveById.get(id);
    }

    /** COMM intervals of one lane in this step, by start (empty when none). */
    public int[] commOnLane(int lane) {
        return commByLane.getOrDefault(lane, new int[0]);
    }
}
