package io.overlapanalyze.analysis.patterns;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;

import java.util.Set;
import java.util.TreeSet;

/**
 * Peak allocated device memory per step (metrics.md §9 "Memory", kineto.md §3.3): the highest
 * allocator total ({@code Total Allocated}) among the rank's device samples whose host time lies
 * in the step's host span {@code [start, end)}; the step {@code all} of a trace without step
 * annotations takes every sample. Allocator events are host-side (recorded when the caching
 * allocator hands out or takes back a block), so the host span, not the device window, is the
 * step's extent here.
 *
 * <p>Which device: the devices the rank's compute and communication run on (its lanes). A
 * Kineto trace of one rank also records the CPU allocator and sometimes other GPUs' events; only
 * the rank's own device counts. Cost: one sort of the samples by time, then a binary search and
 * a scan per step.
 */
public final class MemoryAnalysis {
    private final long[] time;
    private final long[] total;
    private final String unavailable;

    private MemoryAnalysis(long[] time, long[] total, String unavailable) {
        this.time = time;
        this.total = total;
        this.unavailable = unavailable;
    }

    public static MemoryAnalysis of(RankTrace trace) {
        MemorySamples m = trace.memory();
        if (m.isEmpty()) {
            return new MemoryAnalysis(new long[0], new long[0],
                    "the trace has no device allocator events (record with profile_memory=True)");
        }
        Set<Integer> devices = rankDevices(trace);
        int n = 0;
        long[] t = new long[m.size()];
        long[] v = new long[m.size()];
        Set<Integer> seen = new TreeSet<>();
        for (int i = 0; i < m.size(); i++) {
            seen.add(m.device(i));
            if (devices.isEmpty() || devices.contains(m.device(i))) {
                t[n] = m.timeNs(i);
                v[n] = m.totalAllocated(i);
                n++;
            }
        }
        if (n == 0) {
            return new MemoryAnalysis(new long[0], new long[0], "allocator events are for device(s) " + seen
                    + ", not this rank's device(s) " + devices);
        }
        int[] order = PrimitiveSort.indexesSortedBy(t, n);
        long[] ts = new long[n];
        long[] vs = new long[n];
        for (int j = 0; j < n; j++) {
            ts[j] = t[order[j]];
            vs[j] = v[order[j]];
        }
        return new MemoryAnalysis(ts, vs, null);
    }

    /** Devices of the lanes that ran compute or communication; empty when unknown. */
    private static Set<Integer> rankDevices(RankTrace trace) {
        Set<Integer> lanes = new TreeSet<>();
        DeviceIntervals dev = trace.device();
        for (int i = 0; i < dev.size(); i++) {
            DeviceKind k = dev.kind(i);
            if (k == DeviceKind.COMPUTE || k == DeviceKind.COMM) {
                lanes.add(dev.lane(i));
            }
        }
        Set<Integer> devices = new TreeSet<>();
        for (int l : lanes) {
            Lane lane = trace.lanes().get(l);
            if (lane.device() >= 0) {
                devices.add(lane.device());
            }
        }
        return devices;
    }

    /** Why there is no memory section for this rank, or {@code null} when there is one. */
    public String unavailable() {
        return unavailable;
    }

    /**
     * Peak total allocated within {@code [hostStart, hostEnd)}; both {@link Time#UNKNOWN}: over all
     * samples. {@code null} when no sample lies inside.
     */
    public Long peak(long hostStart, long hostEnd) {
        if (time.length == 0) {
            return null;
        }
        int from = 0;
        int to = time.length;
        if (Time.isKnown(hostStart) && Time.isKnown(hostEnd)) {
            from = SortedSearch.firstAtOrAfter(time, hostStart);
            to = SortedSearch.firstAtOrAfter(time, hostEnd);
        }
        if (from >= to) {
            return null;
        }
        long max = Long.MIN_VALUE;
        for (int j = from; j < to; j++) {
            max = Math.max(max, total[j]);
        }
        return max;
    }
}
