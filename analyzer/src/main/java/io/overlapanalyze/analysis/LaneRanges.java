package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;

import java.util.Arrays;
import java.util.List;

/**
 * The GPU-side annotation ranges of one lane, swept against that lane's intervals in start order
 * ({@link AnnotationOverlap}): the ranges open at an interval's start are kept in a heap by end,
 * so each interval meets only the ranges it overlaps. Looking back from every interval by the
 * lane's longest range was intervals × ranges when one range spans the step (Kineto's GPU-side
 * {@code ProfilerStep#N}) and many short ones sit under it (issue 29).
 *
 * <p>Which range gets which piece (metrics.md, micro-batch overlap): an interval of positive
 * length and a range overlap when {@code min(ends) > max(starts)}, the piece is that overlap; a
 * zero-length interval at {@code t} belongs to every range with {@code start ≤ t ≤ end} (piece
 * {@code [t, t]}). A zero-length range holds nothing but zero-length intervals at its instant.
 */
final class LaneRanges {
    /** Receives one piece: annotation {@code id} (index into the trace's annotations) on interval {@code interval}. */
    interface Sink {
        void piece(int id, int interval, long from, long to);
    }

    /** Ranges of positive length, by start: ids, starts, ends. */
    private final int[] ids;
    private final long[] starts;
    private final long[] ends;
    /** Every range, by end (for zero-length intervals at a range's end). */
    private final int[] idsByEnd;
    private final long[] endsSorted;

    LaneRanges(List<Annotation> annotations, int[] rangeIds) {
        int positive = 0;
        for (int id : rangeIds) {
            Annotation a = annotations.get(id);
            if (a.endNs() > a.startNs()) {
                positive++;
            }
        }
        long[] s = new long[positive];
        int[] pid = new int[positive];
        int k = 0;
        for (int id : rangeIds) {
            Annotation a = annotations.get(id);
            if (a.endNs() > a.startNs()) {
                pid[k] = id;
                s[k++] = a.startNs();
            }
        }
        int[] order = PrimitiveSort.indexesSortedBy(s, positive);
        ids = new int[positive];
        starts = new long[positive];
        ends = new long[positive];
        for (int j = 0; j < positive; j++) {
            ids[j] = pid[order[j]];
            starts[j] = annotations.get(ids[j]).startNs();
            ends[j] = annotations.get(ids[j]).endNs();
        }
        long[] e = new long[rangeIds.length];
        for (int j = 0; j < rangeIds.length; j++) {
            e[j] = annotations.get(rangeIds[j]).endNs();
        }
        int[] byEnd = PrimitiveSort.indexesSortedBy(e, rangeIds.length);
        idsByEnd = new int[rangeIds.length];
        endsSorted = new long[rangeIds.length];
        for (int j = 0; j < rangeIds.length; j++) {
            idsByEnd[j] = rangeIds[byEnd[j]];
            endsSorted[j] = e[byEnd[j]];
        }
    }

    /**
     * Every piece of {@code intervals} (this lane's, ordered by start) under these ranges, each
     * once. O((intervals + ranges) log ranges + pieces).
     */
    void sweep(int[] intervals, DeviceIntervals dev, Sink sink) {
        int[] heap = new int[Math.max(1, ids.length)];
        int size = 0;
        int next = 0;
        for (int i : intervals) {
            long s = dev.start(i);
            long e = dev.end(i);
            while (next < ids.length && starts[next] <= s) {
                size = push(heap, size, next++);
            }
            while (size > 0 && ends[heap[0]] <= s) {
                size = pop(heap, size);
            }
            // Open at s (start ≤ s < end): each overlaps the interval.
            for (int h = 0; h < size; h++) {
                int r = heap[h];
                sink.piece(ids[r], i, s, e > s ? Math.min(e, ends[r]) : s);
            }
            if (e > s) {
                // Starting inside the interval.
                for (int r = next; r < ids.length && starts[r] < e; r++) {
                    sink.piece(ids[r], i, starts[r], Math.min(e, ends[r]));
                }
            } else {
                // A zero-length interval also belongs to the ranges ending at its instant.
                for (int p = SortedSearch.firstAtOrAfter(endsSorted, s); p < endsSorted.length && endsSorted[p] == s; p++) {
                    sink.piece(idsByEnd[p], i, s, s);
                }
            }
        }
    }

    /** Min-heap of positions by {@code ends}. */
    private int push(int[] heap, int size, int r) {
        int c = size;
        heap[c] = r;
        while (c > 0) {
            int parent = (c - 1) >>> 1;
            if (ends[heap[parent]] <= ends[heap[c]]) {
                break;
            }
            int t = heap[parent];
            heap[parent] = heap[c];
            heap[c] = t;
            c = parent;
        }
        return size + 1;
    }

    private int pop(int[] heap, int size) {
        int last = size - 1;
        heap[0] = heap[last];
        int c = 0;
        while (true) {
            int l = 2 * c + 1;
            if (l >= last) {
                break;
            }
            int m = l + 1 < last && ends[heap[l + 1]] < ends[heap[l]] ? l + 1 : l;
            if (ends[heap[c]] <= ends[heap[m]]) {
                break;
            }
            int t = heap[m];
            heap[m] = heap[c];
            heap[c] = t;
            c = m;
        }
        return last;
    }

    @Override
    public String toString() {
        return "LaneRanges" + Arrays.toString(ids);
    }
}
