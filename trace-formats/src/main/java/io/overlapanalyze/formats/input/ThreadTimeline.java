package io.overlapanalyze.formats.input;

import io.overlapanalyze.primitives.LongList;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Host spans of one kind (c10d ops, record_param_comms, nccl:* annotations) indexed per thread
 * for time-containment queries. Each thread's spans are sorted by start with a prefix maximum of
 * their ends: the outermost span containing a time is found by binary search, and the innermost by
 * a backward scan that stops as soon as no earlier span can still contain the time (spans on one
 * thread nest or follow each other, so that scan is short).
 */
public final class ThreadTimeline {
    /** One thread's spans sorted by start. */
    private static final class Track {
        long[] start;
        long[] end;
        long[] maxEnd; // max(end[0..i])
        int[] payload;
    }

    private final LongList tids = new LongList(64);
    private final LongList starts = new LongList(64);
    private final LongList ends = new LongList(64);
    private final List<Integer> payloads = new ArrayList<>();
    private Map<Long, Track> tracks;

    /** Adds a span; {@code payload} is the caller's index for it. Only before {@link #build()}. */
    public void add(long tid, long start, long end, int payload) {
        tids.add(tid);
        starts.add(start);
        ends.add(end);
        payloads.add(payload);
    }

    /** Indexes the spans added; call once, before the queries. */
    public void build() {
        Map<Long, List<Integer>> rows = new HashMap<>();
        for (int i = 0; i < tids.size(); i++) {
            rows.computeIfAbsent(tids.get(i), k -> new ArrayList<>()).add(i);
        }
        tracks = new HashMap<>();
        for (Map.Entry<Long, List<Integer>> e : rows.entrySet()) {
            List<Integer> idx = e.getValue();
            // Longer spans first at equal start, so a parent precedes its child.
            idx.sort(Comparator.<Integer>comparingLong(starts::get).thenComparing(Comparator.<Integer>comparingLong(ends::get).reversed()));
            Track t = new Track();
            int n = idx.size();
            t.start = new long[n];
            t.end = new long[n];
            t.maxEnd = new long[n];
            t.payload = new int[n];
            for (int k = 0; k < n; k++) {
                int i = idx.get(k);
                t.start[k] = starts.get(i);
                t.end[k] = ends.get(i);
                t.maxEnd[k] = k == 0 ? t.end[k] : Math.max(t.maxEnd[k - 1], t.end[k]);
                t.payload[k] = payloads.get(i);
            }
            tracks.put(e.getKey(), t);
        }
    }

    /** The payload of the outermost (earliest-starting) span on {@code tid} with start ≤ t ≤ end, or -1. */
    public int outermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        if (tr == null) {
            return -1;
        }
        int k = outermostIndex(tr.start, tr.maxEnd, t);
        return k >= 0 ? tr.payload[k] : -1;
    }

    /**
     * In spans sorted by start whose prefix maximum of ends is {@code maxEnd}: the index of the
     * earliest-starting span with start ≤ t ≤ end, or -1. The first index where the prefix maximum
     * reaches {@code t} is a span that ends at or after {@code t} (it raised the maximum there), and
     * no earlier one does; it contains {@code t} when it starts by then. A binary search, however
     * long the spans that enclose many others.
     */
    public static int outermostIndex(long[] start, long[] maxEnd, long t) {
        int lo = 0;
        int hi = maxEnd.length; // the first index with maxEnd >= t lies in [lo, hi]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (maxEnd[mid] >= t) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo < start.length && start[lo] <= t ? lo : -1;
    }

    /** The payload of the innermost (latest-starting) span on {@code tid} with start ≤ t ≤ end, or -1. */
    public int innermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        if (tr == null) {
            return -1;
        }
        for (int k = lastStartAtOrBefore(tr.start, t); k >= 0 && tr.maxEnd[k] >= t; k--) {
            if (tr.end[k] >= t) {
                return tr.payload[k];
            }
        }
        return -1;
    }

    /** The payload of the first span on {@code tid} starting within {@code [lo, hi]}, or -1. */
    public int firstStartingWithin(long tid, long lo, long hi) {
        Track tr = tracks.get(tid);
        if (tr == null) {
            return -1;
        }
        int k = firstStartAtOrAfter(tr.start, lo);
        return k < tr.start.length && tr.start[k] <= hi ? tr.payload[k] : -1;
    }

    /** In starts sorted ascending: the index of the first one at or after {@code t}, or their count. */
    public static int firstStartAtOrAfter(long[] start, long t) {
        int lo = 0;
        int hi = start.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (start[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** In starts sorted ascending: the index of the last one at or before {@code t}, or -1. */
    public static int lastStartAtOrBefore(long[] start, long t) {
        int lo = 0;
        int hi = start.length - 1;
        int ans = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (start[mid] <= t) {
                ans = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return ans;
    }
}
