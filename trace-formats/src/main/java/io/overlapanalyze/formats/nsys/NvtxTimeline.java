package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.SortedSpans;
import io.overlapanalyze.primitives.LongList;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * NVTX ranges of one kind (c10d ops, NCCL API calls...) per thread, for time-containment
 * queries at a launch ({@link SortedSpans}).
 */
final class NvtxTimeline {
    private static final class Track {
        final LongList start = new LongList(16);
        final LongList end = new LongList(16);
        final List<String> name = new ArrayList<>();
        SortedSpans spans;

        Hit hit(int k) {
            return k >= 0 ? new Hit(name.get(k), spans.start(k), spans.end(k)) : null;
        }
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
            t.spans = new SortedSpans(t.start.toArray(), t.end.toArray());
        }
    }

    /** A range found by a query. */
    record Hit(String name, long start, long end) {
    }

    /** The earliest-starting range on {@code tid} with start ≤ t ≤ end, or {@code null}. */
    Hit outermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        return tr == null ? null : tr.hit(tr.spans.outermostContaining(t));
    }

    /** The latest-starting range on {@code tid} with start ≤ t ≤ end, or {@code null}. */
    Hit innermostContaining(long tid, long t) {
        Track tr = tracks.get(tid);
        return tr == null ? null : tr.hit(tr.spans.innermostContaining(t));
    }

    /** The latest range on {@code tid} named {@code name} that starts at or before {@code t}, or {@code null}. */
    Hit latestNamedAtOrBefore(long tid, String name, long t, int maxLookBack) {
        Track tr = tracks.get(tid);
        if (tr != null) {
            int last = tr.spans.lastStartAtOrBefore(t);
            for (int k = last; k > Math.max(-1, last - maxLookBack); k--) {
                if (tr.name.get(k).equals(name)) {
                    return tr.hit(k);
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
        for (int k = tr.spans.firstStartAtOrAfter(lo); k < tr.spans.size() && tr.spans.start(k) <= hi; k++) {
            out.add(tr.hit(k));
        }
        return out;
    }
}
