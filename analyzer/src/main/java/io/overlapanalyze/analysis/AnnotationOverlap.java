package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.AnnotationReport;

import java.util.ArrayList;
import java.util.BitSet;
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
 */
public final class AnnotationOverlap {
    private AnnotationOverlap() {
    }

    /** One clipped piece of one interval's work for one name. */
    private static final class NameWork {
        final IntervalSet.Builder all = IntervalSet.builder();
        final IntervalSet.Builder comm = IntervalSet.builder();
        final BitSet members = new BitSet();
        final List<long[]> computePieces = new ArrayList<>(); // {interval, start, end}
    }

    /** The step's annotations, by exposed communication (largest first), then name; empty without any. */
    public static List<AnnotationReport> analyze(StepContext step) {
        RankTrace trace = step.trace();
        if (trace.annotations().isEmpty() || !step.hasDeviceWork()) {
            return List.of();
        }
        DeviceIntervals dev = step.device();
        int[] stepIntervals = step.intervals();
        Map<String, NameWork> byName = new LinkedHashMap<>();

        // GPU-side ranges: the step's intervals of each lane that carries one, by start.
        Map<Integer, StepContext.IntList> laneLists = new HashMap<>();
        Map<Integer, Long> laneLongest = new HashMap<>();
        BitSet inStep = null;
        for (Annotation a : trace.annotations()) {
            if (a.onDevice()) {
                laneLists.putIfAbsent(a.lane(), new StepContext.IntList());
            } else if (inStep == null) {
                inStep = new BitSet(dev.size());
                for (int i : stepIntervals) {
                    inStep.set(i);
                }
            }
        }
        if (!laneLists.isEmpty()) {
            for (int i : stepIntervals) {
                StepContext.IntList l = laneLists.get(dev.lane(i));
                if (l != null && dev.kind(i) != DeviceKind.SYNC) {
                    l.add(i);
                    laneLongest.merge(dev.lane(i), dev.duration(i), Math::max);
                }
            }
        }
        Map<Integer, int[]> byLane = new HashMap<>();
        laneLists.forEach((lane, l) -> byLane.put(lane, l.toArray()));

        for (Annotation a : trace.annotations()) {
            if (a.onDevice()) {
                int[] onLane = byLane.get(a.lane());
                if (onLane.length == 0) {
                    continue;
                }
                // Intervals overlapping [start, end): on the lane by start, none reaches back further
                // than the lane's longest interval.
                long from = a.startNs() - laneLongest.get(a.lane());
                for (int p = firstStartAtOrAfter(dev, onLane, from); p < onLane.length; p++) {
                    int i = onLane[p];
                    if (dev.start(i) >= a.endNs()) {
                        break;
                    }
                    long s = Math.max(dev.start(i), a.startNs());
                    long e = Math.min(dev.end(i), a.endNs());
                    if (e > s || (e == s && dev.start(i) >= a.startNs() && dev.end(i) <= a.endNs())) {
                        add(byName, a.name(), dev, i, s, e);
                    }
                }
            } else {
                for (int i : a.intervals()) {
                    if (i < dev.size() && inStep.get(i) && dev.kind(i) != DeviceKind.SYNC) {
                        add(byName, a.name(), dev, i, dev.start(i), dev.end(i));
                    }
                }
            }
        }
        if (byName.isEmpty()) {
            return List.of();
        }
        IntervalSet work = IntervalSet.unionOf(dev, step.compute()).union(IntervalSet.unionOf(dev, step.fused()));
        List<AnnotationReport> out = new ArrayList<>(byName.size());
        for (Map.Entry<String, NameWork> e : byName.entrySet()) {
            NameWork mine = e.getValue();
            IntervalSet.Builder others = IntervalSet.builder();
            for (Map.Entry<String, NameWork> o : byName.entrySet()) {
                if (o.getKey().equals(e.getKey())) {
                    continue;
                }
                for (long[] piece : o.getValue().computePieces) {
                    if (!mine.members.get((int) piece[0])) {
                        others.add(piece[1], piece[2]);
                    }
                }
            }
            IntervalSet comm = mine.comm.build();
            long commNs = comm.length();
            out.add(new AnnotationReport(e.getKey(), mine.all.build().length(), commNs,
                    commNs - comm.intersectionLength(work), comm.intersectionLength(others.build())));
        }
        out.sort(Comparator.comparingLong(AnnotationReport::exposedCommNs).reversed()
                .thenComparing(AnnotationReport::name));
        return out;
    }

    private static void add(Map<String, NameWork> byName, String name, DeviceIntervals dev, int i, long s, long e) {
        NameWork w = byName.computeIfAbsent(name, n -> new NameWork());
        w.members.set(i);
        w.all.add(s, e);
        DeviceKind k = dev.kind(i);
        if (k == DeviceKind.COMM) {
            w.comm.add(s, e);
        } else if (k == DeviceKind.COMPUTE || k == DeviceKind.FUSED) {
            w.computePieces.add(new long[] {i, s, e});
        }
    }

    private static int firstStartAtOrAfter(DeviceIntervals dev, int[] byStart, long t) {
        int lo = 0;
        int hi = byStart.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (dev.start(byStart[mid]) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
