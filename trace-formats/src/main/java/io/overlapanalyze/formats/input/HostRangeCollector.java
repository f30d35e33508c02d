package io.overlapanalyze.formats.input;

import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.primitives.LongList;
import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a reader's host ranges (host ops, annotations, NVTX ranges) per thread and keeps only
 * the outermost ones: what {@code RankTrace.hostRanges()} carries to say what a host thread was
 * doing while the device waited for it (metrics.md §11). A range inside an earlier-starting range
 * of the same thread is dropped, so a trace with millions of nested ops keeps only its top level.
 * Readers leave step ranges out (the contract attributes to the ranges inside the step).
 */
public final class HostRangeCollector {
    private final Map<Long, Thread> byThread = new HashMap<>();
    /** The thread of the last {@link #add}, and its ranges. */
    private Thread last;
    private long lastThreadId;

    /** Adds one range; empty or inverted ranges and unnamed ones are ignored. */
    public void add(long threadId, long startNs, long endNs, String name) {
        if (endNs > startNs && name != null) {
            if (last == null || threadId != lastThreadId) { // ops come in runs of one thread: no boxed key each
                last = byThread.computeIfAbsent(threadId, t -> new Thread());
                lastThreadId = threadId;
            }
            last.add(startNs, endNs, name);
        }
    }

    public boolean isEmpty() {
        return byThread.isEmpty();
    }

    /**
     * The outermost ranges of every thread, shifted by {@code baseNs}, sorted by start; names are
     * shared through {@code intern} (equal names one string).
     */
    public List<HostSpan> outermost(long baseNs) {
        List<HostSpan> out = new ArrayList<>();
        byThread.forEach((tid, t) -> t.outermost(tid, baseNs, out));
        // By start, then thread; one lambda, not a composed comparator (millions of ranges).
        out.sort((a, b) -> a.startNs() != b.startNs() ? Long.compare(a.startNs(), b.startNs())
                : Long.compare(a.threadId(), b.threadId()));
        return out;
    }

    private static final class Thread {
        private final LongList starts = new LongList(16);
        private final LongList negatedEnds = new LongList(16);
        private final List<String> names = new ArrayList<>();

        void add(long start, long end, String name) {
            starts.add(start);
            negatedEnds.add(-end); // equal starts: the longest first
            names.add(name);
        }

        void outermost(long tid, long baseNs, List<HostSpan> out) {
            int n = starts.size();
            long[] s = starts.array();
            long[] ne = negatedEnds.array();
            int[] order = PrimitiveSort.indexesSortedBy(s, ne, n);
            long maxEnd = Long.MIN_VALUE;
            for (int i : order) {
                long end = -ne[i];
                if (end > maxEnd) {
                    out.add(new HostSpan(HostSpanKind.RANGE, names.get(i), s[i] + baseNs, end + baseNs, tid));
                    maxEnd = end;
                }
            }
        }
    }
}
