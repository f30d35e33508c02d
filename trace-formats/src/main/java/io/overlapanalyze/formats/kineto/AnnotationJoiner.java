package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The user annotation ranges of a Kineto trace, once the whole file is read and launches are
 * linked. GPU-side ranges ({@code gpu_user_annotation}) are taken as they are, on the lane of
 * their stream; a range on a stream that ran no device work has nothing to report and is left
 * out. Only when the trace has no GPU-side range at all are the host {@code user_annotation}
 * ranges used: each is given the device intervals whose host launch lies inside it on the same
 * thread (a range that launched nothing is left out). Both never at once: Kineto writes a GPU
 * range for each host range that launched work, so using both would count each twice.
 */
final class AnnotationJoiner {
    private AnnotationJoiner() {
    }

    /** The annotations, with times shifted by {@code base} (the device intervals are already shifted). */
    static List<Annotation> join(TraceCollector c, DeviceIntervals device, long base) {
        List<Annotation> out = new ArrayList<>();
        if (c.gpuAnnotationNames.size() > 0) {
            for (int k = 0; k < c.gpuAnnotationNames.size(); k++) {
                int lane = c.existingLane(c.gpuAnnotationDevice.get(k), c.gpuAnnotationStream.get(k));
                long start = c.gpuAnnotationStart.get(k);
                long end = c.gpuAnnotationEnd.get(k);
                if (lane >= 0 && fits(start, base) && fits(end, base)) {
                    out.add(Annotation.onDevice(c.gpuAnnotationNames.get(k), start + base, end + base, lane));
                }
            }
            return out;
        }
        if (c.hostAnnotationNames.isEmpty()) {
            return out;
        }
        Map<Long, int[]> byThread = launchesByThread(device);
        for (int k = 0; k < c.hostAnnotationNames.size(); k++) {
            int[] launched = byThread.get(c.hostAnnotationTid.get(k));
            if (launched == null) {
                continue;
            }
            if (!fits(c.hostAnnotationStart.get(k), base) || !fits(c.hostAnnotationEnd.get(k), base)) {
                continue;
            }
            long start = c.hostAnnotationStart.get(k) + base;
            long end = c.hostAnnotationEnd.get(k) + base;
            int from = firstAtOrAfter(device, launched, start);
            int to = from;
            while (to < launched.length && device.launchNs(launched[to]) <= end) {
                to++;
            }
            if (to > from) {
                int[] mine = Arrays.copyOfRange(launched, from, to);
                Arrays.sort(mine);
                out.add(Annotation.onHost(c.hostAnnotationNames.get(k), start, end, c.hostAnnotationTid.get(k), mine));
            }
        }
        return out;
    }

    /** False when {@code t + base} is out of range (a corrupt range the device work never reaches): left out. */
    private static boolean fits(long t, long base) {
        long sum = t + base;
        return ((t ^ sum) & (base ^ sum)) >= 0;
    }

    /**
     * Per launching thread, the device intervals with a known launch, by launch time (ties in
     * interval order). Primitive lists and a stable merge sort: no boxed index per interval (this
     * ran over every device interval of a 1 GB trace).
     */
    private static Map<Long, int[]> launchesByThread(DeviceIntervals d) {
        Map<Long, IntList> lists = new HashMap<>();
        IntList last = null;
        long lastThread = 0;
        for (int i = 0; i < d.size(); i++) {
            if (Time.isKnown(d.launchNs(i))) {
                long thread = d.launchThread(i);
                if (last == null || thread != lastThread) { // runs of one thread: one map look-up each
                    last = lists.computeIfAbsent(thread, t -> new IntList(16));
                    lastThread = thread;
                }
                last.add(i);
            }
        }
        Map<Long, int[]> out = new HashMap<>();
        lists.forEach((thread, list) -> {
            int[] byLaunch = list.toArray();
            PrimitiveSort.sort(byLaunch, (a, b) -> Long.compare(d.launchNs(a), d.launchNs(b)));
            out.put(thread, byLaunch);
        });
        return out;
    }

    /** The first position in {@code byLaunch} whose launch time is at or after {@code t}. */
    private static int firstAtOrAfter(DeviceIntervals d, int[] byLaunch, long t) {
        int lo = 0;
        int hi = byLaunch.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (d.launchNs(byLaunch[mid]) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
