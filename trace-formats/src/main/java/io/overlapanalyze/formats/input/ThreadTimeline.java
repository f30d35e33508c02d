package io.overlapanalyze.formats.input;

import io.overlapanalyze.primitives.LongList;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Host spans of one kind (c10d ops, record_param_comms, nccl:* annotations) indexed per thread
 * for time-containment queries ({@link SortedSpans}: each a binary search or a tree descent, so a
 * span enclosing thousands of others costs no more than one enclosing none).
 */
public final class ThreadTimeline {
    /** One thread's spans sorted by start, and the caller's index of each. */
    private record Track(SortedSpans spans, int[] payload) {
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
            int n = idx.size();
            long[] start = new long[n];
            long[] end = new long[n];
            int[] payload = new int[n];
            for (int k = 0; k < n; k++) {
                int i = idx.get(k);
                start[k] = starts.get(i);
                end[k] = ends.get(i);
                payload[k] = payloads.get(i);
            }
            tracks.put(e.getKey(), new Track(new SortedSpans(start, end), payload));
        }
    }

    /** The payload of the outermost (earliest-starting) span on {@code tid} with start ≤ t ≤ end, or -1. */
    public int outermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        return tr == null ? -1 : payloadAt(tr, tr.spans().outermostContaining(t));
    }

    /** The payload of the innermost (latest-starting) span on {@code tid} with start ≤ t ≤ end, or -1. */
    public int innermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        return tr == null ? -1 : payloadAt(tr, tr.spans().innermostContaining(t));
    }

    /** The payload of the first span on {@code tid} starting within {@code [lo, hi]}, or -1. */
    public int firstStartingWithin(long tid, long lo, long hi) {
        Track tr = tracks.get(tid);
        if (tr == null) {
            return -1;
        }
        int k = tr.spans().firstStartAtOrAfter(lo);
        return k < tr.spans().size() && tr.spans().start(k) <= hi ? tr.payload()[k] : -1;
    }

    private static int payloadAt(Track tr, int k) {
        return k >= 0 ? tr.payload()[k] : -1;
    }
}
