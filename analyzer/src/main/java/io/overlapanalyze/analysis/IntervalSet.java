package io.overlapanalyze.analysis;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.Arrays;

/**
 * A union of half-open time intervals {@code [start, end)} in ns, kept as sorted, disjoint,
 * non-touching runs in two primitive arrays. This is the "union / intersection over all streams"
 * rule of metrics.md §5: an instant counts once however many kernels run at it.
 *
 * <p>Touching intervals ({@code [0,2)} and {@code [2,4)}) merge into one ({@code [0,4)}); empty or
 * inverted intervals are dropped. All operations are linear in the number of runs (after the
 * O(n log n) sort when building from raw intervals). Immutable, and serialisable so that a
 * distributed run can send a step's unions from the machine that read the trace.
 */
public final class IntervalSet implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final IntervalSet EMPTY = new IntervalSet(new long[0], new long[0], 0);

    private final long[] starts;
    private final long[] ends;
    private final int size;

    private IntervalSet(long[] starts, long[] ends, int size) {
        this.starts = starts;
        this.ends = ends;
        this.size = size;
    }

    public static IntervalSet empty() {
        return EMPTY;
    }

    /** A set holding the single interval {@code [start, end)} (empty when end ≤ start). */
    public static IntervalSet of(long start, long end) {
        if (end <= start) {
            return EMPTY;
        }
        return new IntervalSet(new long[] {start}, new long[] {end}, 1);
    }

    /**
     * The union of {@code n} raw intervals given as parallel arrays (not modified), in any order,
     * possibly overlapping, nested or touching.
     */
    /** The union of some of a rank's device intervals (indexes into {@code dev}). */
    public static IntervalSet unionOf(DeviceIntervals dev, int[] intervals) {
        long[] s = new long[intervals.length];
        long[] e = new long[intervals.length];
        for (int j = 0; j < intervals.length; j++) {
            s[j] = dev.start(intervals[j]);
            e[j] = dev.end(intervals[j]);
        }
        return unionInPlace(s, e, intervals.length);
    }

    public static IntervalSet union(long[] rawStarts, long[] rawEnds, int n) {
        if (n == 0) {
            return EMPTY;
        }
        return unionInPlace(Arrays.copyOf(rawStarts, n), Arrays.copyOf(rawEnds, n), n);
    }

    /**
     * As {@link #union}, on arrays the caller gives up: they are sorted and the runs written over
     * their first slots (run {@code m} is written only after raw interval {@code m} was read), and
     * the set keeps them; no copy (these unions were ~40 % of the analysis's allocation). Arrays
     * mostly empty after the merge are trimmed, so a set keeps no more than twice its runs.
     */
    private static IntervalSet unionInPlace(long[] s, long[] e, int n) {
        if (n == 0) {
            return EMPTY;
        }
        sortPairsByStart(s, e, n);
        int m = 0;
        for (int i = 0; i < n; i++) {
            long start = s[i];
            long end = e[i];
            if (end <= start) {
                continue;
            }
            if (m > 0 && start <= e[m - 1]) {
                if (end > e[m - 1]) {
                    e[m - 1] = end;
                }
            } else {
                s[m] = start;
                e[m] = end;
                m++;
            }
        }
        if (m == 0) {
            return EMPTY;
        }
        if (m < s.length / 2) {
            return new IntervalSet(Arrays.copyOf(s, m), Arrays.copyOf(e, m), m);
        }
        return new IntervalSet(s, e, m);
    }

    /**
     * Builder that collects raw intervals and returns their union. {@link #build} merges in the
     * builder's own arrays and hands them to the set (no copy); the builder then holds those runs
     * (the same union) and copies them before it is added to again, so building, adding and
     * building again gives what it always did.
     */
    public static final class Builder {
        private long[] s = new long[16];
        private long[] e = new long[16];
        private int n;
        /** The set the last {@link #build} returned, which shares {@link #s} and {@link #e}; null after an add. */
        private IntervalSet built;

        public Builder add(long start, long end) {
            if (built != null) {
                s = Arrays.copyOf(s, Math.max(16, n * 2));
                e = Arrays.copyOf(e, Math.max(16, n * 2));
                built = null;
            }
            if (n == s.length) {
                s = Arrays.copyOf(s, n * 2);
                e = Arrays.copyOf(e, n * 2);
            }
            s[n] = start;
            e[n] = end;
            n++;
            return this;
        }

        public IntervalSet build() {
            if (built == null) {
                built = unionInPlace(s, e, n);
                n = built.size;
                if (built.starts != s) { // trimmed or empty: the builder keeps the runs in its own arrays
                    System.arraycopy(built.starts, 0, s, 0, n);
                    System.arraycopy(built.ends, 0, e, 0, n);
                }
            }
            return built;
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Number of disjoint runs. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long start(int run) {
        return starts[run];
    }

    public long end(int run) {
        return ends[run];
    }

    /** Total covered length |X| in ns. */
    public long length() {
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += ends[i] - starts[i];
        }
        return total;
    }

    /**
     * Covered length inside {@code [from, to)}: {@code |X ∩ [from, to)|}. O(log n + runs inside):
     * the first run that can reach into the range is found by binary search.
     */
    public long lengthWithin(long from, long to) {
        if (to <= from || size == 0) {
            return 0;
        }
        int first = firstEndingAfter(ends, size, from);
        long total = 0;
        for (int i = first; i < size && starts[i] < to; i++) {
            total += Math.min(ends[i], to) - Math.max(starts[i], from);
        }
        return total;
    }

    /** The index of the first run that ends after {@code t} ({@link #size()} when none does). O(log n). */
    public int firstRunEndingAfter(long t) {
        return firstEndingAfter(ends, size, t);
    }

    /**
     * The first index below {@code size} whose end lies after {@code t} in ascending {@code ends}, or
     * {@code size}: where a sweep of sorted, disjoint ranges from {@code t} on starts. O(log n).
     */
    static int firstEndingAfter(long[] ends, int size, long t) {
        int lo = 0;
        int hi = size - 1;
        int first = size;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (ends[mid] > t) {
                first = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        return first;
    }

    /** True when {@code t} lies in some run {@code [start, end)}. O(log n). */
    public boolean contains(long t) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= t) {
                if (t < ends[mid]) {
                    return true;
                }
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }

    /** X ∪ Y. */
    public IntervalSet union(IntervalSet other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        int n = size + other.size;
        long[] s = new long[n];
        long[] e = new long[n];
        int i = 0;
        int j = 0;
        int k = 0;
        // Both inputs are sorted by start: merge them, then coalesce.
        while (i < size || j < other.size) {
            boolean takeThis = j >= other.size || (i < size && starts[i] <= other.starts[j]);
            long cs = takeThis ? starts[i] : other.starts[j];
            long ce = takeThis ? ends[i++] : other.ends[j++];
            if (k > 0 && cs <= e[k - 1]) {
                if (ce > e[k - 1]) {
                    e[k - 1] = ce;
                }
            } else {
                s[k] = cs;
                e[k] = ce;
                k++;
            }
        }
        return new IntervalSet(s, e, k);
    }

    /** X ∩ Y. */
    public IntervalSet intersect(IntervalSet other) {
        long[] s = new long[size + other.size];
        long[] e = new long[size + other.size];
        int k = 0;
        int i = 0;
        int j = 0;
        while (i < size && j < other.size) {
            long lo = Math.max(starts[i], other.starts[j]);
            long hi = Math.min(ends[i], other.ends[j]);
            if (lo < hi) {
                // Runs of each input are non-touching, so pieces of the result never touch.
                s[k] = lo;
                e[k] = hi;
                k++;
            }
            if (ends[i] < other.ends[j]) {
                i++;
            } else {
                j++;
            }
        }
        return k == 0 ? EMPTY : new IntervalSet(s, e, k);
    }

    /** |X ∩ Y| without building the intersection. */
    public long intersectionLength(IntervalSet other) {
        long total = 0;
        int i = 0;
        int j = 0;
        while (i < size && j < other.size) {
            long lo = Math.max(starts[i], other.starts[j]);
            long hi = Math.min(ends[i], other.ends[j]);
            if (lo < hi) {
                total += hi - lo;
            }
            if (ends[i] < other.ends[j]) {
                i++;
            } else {
                j++;
            }
        }
        return total;
    }

    /** X − Y. */
    public IntervalSet subtract(IntervalSet other) {
        if (isEmpty() || other.isEmpty()) {
            return this;
        }
        long[] s = new long[size + other.size];
        long[] e = new long[size + other.size];
        int k = 0;
        int j = 0;
        for (int i = 0; i < size; i++) {
            long cur = starts[i];
            long end = ends[i];
            // Skip cuts that end before this run.
            while (j < other.size && other.ends[j] <= cur) {
                j++;
            }
            int jj = j;
            while (jj < other.size && other.starts[jj] < end) {
                if (other.starts[jj] > cur) {
                    if (k == s.length) {
                        s = Arrays.copyOf(s, k * 2);
                        e = Arrays.copyOf(e, k * 2);
                    }
                    s[k] = cur;
                    e[k] = other.starts[jj];
                    k++;
                }
                cur = Math.max(cur, other.ends[jj]);
                if (cur >= end) {
                    break;
                }
                jj++;
            }
            if (cur < end) {
                if (k == s.length) {
                    s = Arrays.copyOf(s, k * 2);
                    e = Arrays.copyOf(e, k * 2);
                }
                s[k] = cur;
                e[k] = end;
                k++;
            }
        }
        return k == 0 ? EMPTY : new IntervalSet(s, e, k);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                b.append(", ");
            }
            b.append('[').append(starts[i]).append(',').append(ends[i]).append(')');
        }
        return b.append('}').toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof IntervalSet other) || other.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (starts[i] != other.starts[i] || ends[i] != other.ends[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < size; i++) {
            h = 31 * h + Long.hashCode(starts[i]);
            h = 31 * h + Long.hashCode(ends[i]);
        }
        return h;
    }

    /** In-place sort of parallel (start, end) arrays by start; primitive, O(n log n), one pass when in order. */
    private static void sortPairsByStart(long[] s, long[] e, int n) {
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = s[i - 1] <= s[i];
        }
        if (sorted) {
            return; // device work comes almost in time order: no index array, no copies
        }
        int[] idx = PrimitiveSort.indexesSortedBy(s, n);
        long[] s2 = new long[n];
        long[] e2 = new long[n];
        for (int i = 0; i < n; i++) {
            s2[i] = s[idx[i]];
            e2[i] = e[idx[i]];
        }
        System.arraycopy(s2, 0, s, 0, n);
        System.arraycopy(e2, 0, e, 0, n);
    }
}
