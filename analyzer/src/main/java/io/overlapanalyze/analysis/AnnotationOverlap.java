package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.report.AnnotationReport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Micro-batch overlap (one step, per user annotation name): which communication of an annotation
 * ran under the compute of another (DualPipe's {@code dispatch(F)} under {@code mlp(B)}).
 *
 * <p>An annotation's device work in a step is, for a GPU-side range, every step interval but SYNC
 * on the range's lane that overlaps it, clipped to the range (Kineto draws the range 1 ns wider
 * than its kernels at each end: clipping keeps that out); for a host range, the step's intervals
 * it launched, whole. Per name, over all its ranges: {@code deviceNs} = |union of that work|,
 * {@code commNs} = |its COMM part|, {@code exposedCommNs} = |COMM part − (K ∪ F)| with K and F the
 * step's compute and fused unions (fused kernels compute too), {@code hiddenUnderNs} = |COMM part ∩
 * O| with O the compute and fused work of ranges of other names, leaving out intervals that are
 * work of this name too (nested ranges). A name without device work in the step is not listed.
 *
 * <p>The ranges are indexed once per rank ({@link Index}), so a step costs one pass over its own
 * intervals, however many steps and ranges the trace has; the names are compared in one sweep
 * ({@link HiddenUnderSweep}), never name by name.
 */
public final class AnnotationOverlap {
    private AnnotationOverlap() {
    }

    /** Which ranges each interval can belong to, built once per rank. */
    public static final class Index {
        private final List<Annotation> annotations;
        /** Host ranges: interval i's annotations are hostIds[hostFirst[i] .. hostFirst[i + 1]). */
        private final int[] hostFirst;
        private final int[] hostIds;
        /** GPU ranges per lane, ready to be swept against the lane's intervals. */
        private final Map<Integer, LaneRanges> gpuByLane = new HashMap<>();

        private Index(RankTrace trace) {
            annotations = trace.annotations();
            DeviceIntervals dev = trace.device();
            int[] count = null;
            Map<Integer, List<Integer>> lanes = new HashMap<>();
            for (int k = 0; k < annotations.size(); k++) {
                Annotation a = annotations.get(k);
                if (a.onDevice()) {
                    lanes.computeIfAbsent(a.lane(), l -> new ArrayList<>()).add(k);
                } else {
                    if (count == null) {
                        count = new int[dev.size() + 1];
                    }
                    for (int i : a.intervals()) {
                        if (i >= 0 && i < dev.size()) {
                            count[i + 1]++;
                        }
                    }
                }
            }
            lanes.forEach((lane, ids) -> gpuByLane.put(lane,
                    new LaneRanges(annotations, ids.stream().mapToInt(Integer::intValue).toArray())));
            if (count == null) {
                hostFirst = null;
                hostIds = null;
                return;
            }
            for (int i = 0; i < dev.size(); i++) {
                count[i + 1] += count[i];
            }
            hostFirst = count;
            hostIds = new int[count[dev.size()]];
            int[] fill = Arrays.copyOf(count, dev.size());
            for (int k = 0; k < annotations.size(); k++) {
                Annotation a = annotations.get(k);
                if (!a.onDevice()) {
                    for (int i : a.intervals()) {
                        if (i >= 0 && i < dev.size()) {
                            hostIds[fill[i]++] = k;
                        }
                    }
                }
            }
        }

        boolean isEmpty() {
            return annotations.isEmpty();
        }
    }

    /** The index of {@code trace}'s ranges, for {@link #analyze(StepContext, Index)}. */
    public static Index index(RankTrace trace) {
        return new Index(trace);
    }

    /** What one name did in the step. */
    private static final class NameWork {
        final IntervalSet.Builder all = IntervalSet.builder();
        final IntervalSet.Builder comm = IntervalSet.builder();
        /** The compute and fused intervals it has pieces on (repeats allowed). */
        final IntList computeIntervals = new IntList(4);
    }

    /** As {@link #analyze(StepContext, Index)}, indexing the trace's ranges first. */
    public static List<AnnotationReport> analyze(StepContext step) {
        return analyze(step, index(step.trace()));
    }

    /** The step's annotations, by exposed communication (largest first), then name; empty without any. */
    public static List<AnnotationReport> analyze(StepContext step, Index index) {
        if (index.isEmpty() || !step.hasDeviceWork()) {
            return List.of();
        }
        DeviceIntervals dev = step.device();
        Map<String, NameWork> byName = new LinkedHashMap<>();
        HiddenUnderSweep sweep = new HiddenUnderSweep();
        Map<Integer, IntList> byLane = new HashMap<>();
        for (int i : step.intervals()) {
            if (dev.kind(i) == DeviceKind.SYNC) {
                continue; // host-time rows (metrics.md §1): no device work
            }
            long s = dev.start(i);
            long e = dev.end(i);
            if (index.hostFirst != null) {
                for (int p = index.hostFirst[i]; p < index.hostFirst[i + 1]; p++) {
                    add(byName, sweep, index.annotations.get(index.hostIds[p]).name(), dev, i, s, e);
                }
            }
            if (index.gpuByLane.containsKey(dev.lane(i))) {
                byLane.computeIfAbsent(dev.lane(i), l -> new IntList(64)).add(i);
            }
        }
        // GPU ranges: each lane's intervals in start order, swept against the lane's ranges.
        for (Map.Entry<Integer, IntList> lane : byLane.entrySet()) {
            int[] ids = lane.getValue().toArray();
            PrimitiveSort.sort(ids, (x, y) -> Long.compare(dev.start(x), dev.start(y)));
            index.gpuByLane.get(lane.getKey()).sweep(ids, dev, (id, i, from, to) ->
                    add(byName, sweep, index.annotations.get(id).name(), dev, i, from, to));
        }
        if (byName.isEmpty()) {
            return List.of();
        }
        IntervalSet work = IntervalSet.unionOf(dev, step.compute()).union(IntervalSet.unionOf(dev, step.fused()));
        PrefixLengths workLengths = new PrefixLengths(work);
        List<int[]> own = new ArrayList<>(byName.size());
        List<IntervalSet> comms = new ArrayList<>(byName.size());
        for (NameWork w : byName.values()) {
            own.add(w.computeIntervals.toArray());
            comms.add(w.comm.build());
        }
        // Work of other names a name's communication ran under: one sweep for all names.
        long[] hidden = sweep.hiddenUnder(own, comms);
        List<AnnotationReport> out = new ArrayList<>(byName.size());
        int k = 0;
        for (Map.Entry<String, NameWork> e : byName.entrySet()) {
            IntervalSet comm = comms.get(k);
            long commNs = comm.length();
            out.add(new AnnotationReport(e.getKey(), e.getValue().all.build().length(), commNs,
                    commNs - workLengths.intersectionLength(comm), hidden[k]));
            k++;
        }
        out.sort(Comparator.comparingLong(AnnotationReport::exposedCommNs).reversed()
                .thenComparing(AnnotationReport::name));
        return out;
    }

    private static void add(Map<String, NameWork> byName, HiddenUnderSweep sweep, String name, DeviceIntervals dev,
                            int i, long s, long e) {
        NameWork w = byName.computeIfAbsent(name, n -> new NameWork());
        w.all.add(s, e);
        DeviceKind k = dev.kind(i);
        if (k == DeviceKind.COMM) {
            w.comm.add(s, e);
        } else if (k == DeviceKind.COMPUTE || k == DeviceKind.FUSED) {
            w.computeIntervals.add(i);
            sweep.addComputePiece(i, s, e);
        }
    }
}
