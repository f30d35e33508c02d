package io.overlapanalyze.analysis;

import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.report.HostActivity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A rank's host ranges per thread, reduced to the outermost ones, to say what a host thread was
 * doing at an instant (metrics.md §11: "the outermost host range on that thread that covers each
 * instant").
 *
 * <p>Per thread the ranges are sorted by start (longest first on equal starts) and every range
 * inside an earlier one is dropped; what is left has increasing starts and increasing ends. An
 * instant is then attributed to the earliest-starting range that covers it: range {@code i} owns
 * {@code [max(start_i, end_{i-1}), end_i)}. Ranges that overlap without nesting (asynchronous
 * ranges) are so handled without double counting. Immutable once built.
 */
public final class HostRanges {
    private static final HostRanges NONE = new HostRanges(Map.of());

    private final Map<Long, Outermost> byThread;

    private HostRanges(Map<Long, Outermost> byThread) {
        this.byThread = byThread;
    }

    public static HostRanges none() {
        return NONE;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Adds to {@code into}, per name, how much of {@code [from, to)} the outermost ranges of
     * {@code thread} cover; the rest goes to {@link HostActivity#BETWEEN_RANGES}.
     */
    public void attribute(long thread, long from, long to, Map<String, Long> into) {
        if (to <= from) {
            return;
        }
        Outermost ranges = byThread.get(thread);
        long covered = ranges == null ? 0 : ranges.attribute(from, to, into);
        if (covered < to - from) {
            into.merge(HostActivity.BETWEEN_RANGES, (to - from) - covered, Long::sum);
        }
    }

    /** One thread's outermost ranges: starts and ends both increasing. */
    private record Outermost(long[] starts, long[] ends, String[] names) {
        long attribute(long from, long to, Map<String, Long> into) {
            int first = IntervalSet.firstEndingAfter(ends, ends.length, from);
            long covered = 0;
            for (int i = first; i < ends.length && starts[i] < to; i++) {
                long own = i > 0 ? Math.max(starts[i], ends[i - 1]) : starts[i];
                long a = Math.max(own, from);
                long b = Math.min(ends[i], to);
                if (a < b) {
                    into.merge(names[i], b - a, Long::sum);
                    covered += b - a;
                }
            }
            return covered;
        }
    }

    /** Collects ranges in any order; {@link #build()} sorts and prunes them per thread. */
    public static final class Builder {
        private final Map<Long, Raw> raw = new HashMap<>();
        /** The thread of the last {@link #add}, and its ranges. */
        private Raw last;
        private long lastThread;

        private Builder() {
        }

        public Builder add(long thread, long startNs, long endNs, String name) {
            if (endNs > startNs && name != null) {
                if (last == null || thread != lastThread) { // ranges come in runs of one thread: no boxed key each
                    last = raw.computeIfAbsent(thread, t -> new Raw());
                    lastThread = thread;
                }
                last.add(startNs, endNs, name);
            }
            return this;
        }

        public HostRanges build() {
            if (raw.isEmpty()) {
                return NONE;
            }
            Map<Long, Outermost> out = new HashMap<>();
            raw.forEach((thread, r) -> out.put(thread, r.outermost()));
            return new HostRanges(out);
        }
    }

    /** One thread's ranges as added. */
    private static final class Raw {
        private long[] s = new long[16];
        private long[] e = new long[16];
        private long[] negatedEnd = new long[16];
        private final List<String> names = new ArrayList<>();
        private int n;

        void add(long start, long end, String name) {
            if (n == s.length) {
                s = java.util.Arrays.copyOf(s, n * 2);
                e = java.util.Arrays.copyOf(e, n * 2);
                negatedEnd = java.util.Arrays.copyOf(negatedEnd, n * 2);
            }
            s[n] = start;
            e[n] = end;
            negatedEnd[n] = -end; // equal starts: the longest first
            names.add(name);
            n++;
        }

        Outermost outermost() {
            int[] order = PrimitiveSort.indexesSortedBy(s, negatedEnd, n);
            long[] starts = new long[n];
            long[] ends = new long[n];
            String[] kept = new String[n];
            int m = 0;
            long maxEnd = Long.MIN_VALUE;
            for (int idx : order) {
                if (e[idx] > maxEnd) { // not inside an earlier range
                    starts[m] = s[idx];
                    ends[m] = e[idx];
                    kept[m] = names.get(idx);
                    m++;
                    maxEnd = e[idx];
                }
            }
            return new Outermost(java.util.Arrays.copyOf(starts, m), java.util.Arrays.copyOf(ends, m),
                    java.util.Arrays.copyOf(kept, m));
        }
    }
}
