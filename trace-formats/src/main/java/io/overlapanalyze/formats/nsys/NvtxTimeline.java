package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.ThreadTimeline;
import io.overlapanalyze.primitives.LongList;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * NVTX ranges of one kind (c10d ops, NCCL API calls...) per thread, for time-containment
 * queries at a launch. A prefix maximum of end times finds the outermost range containing a time
 * by binary search ({@link ThreadTimeline#outermostIndex}), and lets the backward scan for the
 * innermost stop once no earlier range can still contain the time.
 */
final class NvtxTimeline {
    private static final class Track {
        final LongList start = new LongList(16);
        final LongList end = new LongList(16);
        final List<String> name = new ArrayList<>();
        long[] s;
        long[] e;
        long[] maxEnd;
    }

    private final Map<Long, Track> tracks = new HashMap<>();

    /** Adds a range; rows must come in start order per thread (the reader sorts NVTX by start in SQL). */
    void add(long tid, long start, long end, String name) {
        Track t = tracks.computeIfAbsent(tid, k -> new Track());
        t.start.add(start);
        t.end.add(end);
        t.name.add(name);
    }

    boolean isEmpty() {
        return tracks.isEmpty();
    }

    void build() {
        for (Track t : tracks.values()) {
            int n = t.start.size();
            t.s = t.start.toArray();
            t.e = t.end.toArray();
            t.maxEnd = new long[n];
            for (int k = 0; k < n; k++) {
                t.maxEnd[k] = k == 0 ? t.e[k] : Math.max(t.maxEnd[k - 1], t.e[k]);
            }
        }
    }

    /** A range found by a query. */
    record Hit(String name, long start, long end) {
    }

    /** The earliest-starting range on {@code tid} with start ≤ t ≤ end, or {@code null}. */
    Hit outermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        int k = tr == null ? -1 : ThreadTimeline.outermostIndex(tr.s, tr.maxEnd, t);
        return k >= 0 ? new Hit(tr.name.get(k), tr.s[k], tr.e[k]) : null;
    }

    /** The latest-starting range on {@code tid} with start ≤ t ≤ end, or {@code null}. */
    Hit innermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        if (tr != null) {
            for (int k = ThreadTimeline.lastStartAtOrBefore(tr.s, t); k >= 0 && tr.maxEnd[k] >= t; k--) {
                if (tr.e[k] >= t) {
                    return new Hit(tr.name.get(k), tr.s[k], tr.e[k]);
                }
            }
        }
        return null;
    }

    /** The latest range on {@code tid} named {@code name} that starts at or before {@code t}, or {@code null}. */
    Hit latestNamedAtOrBefore(long tid, String name, long t, int maxLookBack) {
        Track tr = tracks.get(tid);
        if (tr != null) {
            int stop = Math.max(-1, ThreadTimeline.lastStartAtOrBefore(tr.s, t) - maxLookBack);
            for (int k = ThreadTimeline.lastStartAtOrBefore(tr.s, t); k > stop; k--) {
                if (tr.name.get(k).equals(name)) {
                    return new Hit(name, tr.s[k], tr.e[k]);
                }
            }
        }
        return null;
    }

    /** Ranges on {@code tid} starting within {@code [lo, hi]}, in start order. */
    List<Hit> startingWithin(long tid, long lo, long hi) {
        Track tr = tracks.get(tid);
        List<Hit> out = new ArrayList<>();
        if (tr == null) {
            return out;
        }
        for (int k = ThreadTimeline.firstStartAtOrAfter(tr.s, lo); k < tr.s.length && tr.s[k] <= hi; k++) {
            out.add(new Hit(tr.name.get(k), tr.s[k], tr.e[k]));
        }
        return out;
    }
}
