package io.overlapanalyze.analysis;

import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.primitives.LongList;
import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.Arrays;
import java.util.List;

/**
 * {@code hiddenUnderNs} of every annotation name of one step ({@link AnnotationOverlap}) without
 * comparing each name with every other's work, which was quadratic in the names of a step (issue
 * 29: 20,000 distinct names did not finish in 150 s).
 *
 * <p>For a name N, the work of other names it can hide under is every compute or fused piece of an
 * interval that is not one of N's own: O_N = ∪ V_i over intervals i not in N, with V_i the union
 * of all pieces (any name's) of interval i (a piece of another name on an interval of N's is left
 * out, as a nested range is). With D(t) the number of intervals whose V_i covers t and D_N(t) the
 * number of N's own intervals doing so (D_N ≤ D), t lies in O_N exactly when D(t) &gt; D_N(t), so
 * <pre>
 *   |comm_N ∩ O_N| = |comm_N ∩ {D &gt; 0}| − |comm_N ∩ {D = D_N ≥ 1}|
 * </pre>
 * The first term is a prefix-sum lookup per run of N's communication. For the second, N's own
 * intervals are swept into pieces where D_N = k; each piece inside N's communication asks "how long
 * is D ≤ k over [a, b)", and all those questions of the step are answered offline: D's elementary
 * segments and the questions sorted by value, a Fenwick tree of segment lengths. The cost is
 * O((pieces + questions) log) for the step: linear in what the names did, however many names.
 */
final class HiddenUnderSweep {
    private final IntList pieceInterval = new IntList(64);
    private final LongList pieceStart = new LongList(64);
    private final LongList pieceEnd = new LongList(64);

    /** A compute or fused piece of device interval {@code interval}, of any name. */
    void addComputePiece(int interval, long start, long end) {
        if (end > start) {
            pieceInterval.add(interval);
            pieceStart.add(start);
            pieceEnd.add(end);
        }
    }

    /**
     * {@code hiddenUnderNs} per name.
     *
     * @param ownIntervals per name, the intervals it has compute or fused pieces on (repeats allowed)
     * @param comm         per name, the union of its communication
     */
    long[] hiddenUnder(List<int[]> ownIntervals, List<IntervalSet> comm) {
        int names = comm.size();
        long[] hidden = new long[names];
        int n = pieceInterval.size();
        if (n == 0) {
            return hidden;
        }
        Runs v = unionPerInterval(n);
        Segments d = Segments.of(v.start, v.end, v.size);
        PrefixLengths anyCompute = new PrefixLengths(IntervalSet.union(v.start, v.end, v.size));

        Questions q = new Questions();
        LongList ownStarts = new LongList(16);
        LongList ownEnds = new LongList(16);
        for (int name = 0; name < names; name++) {
            IntervalSet c = comm.get(name);
            if (c.isEmpty()) {
                continue;
            }
            long covered = 0;
            for (int r = 0; r < c.size(); r++) {
                covered += anyCompute.within(c.start(r), c.end(r));
            }
            hidden[name] = covered;
            ownStarts.clear();
            ownEnds.clear();
            int[] own = ownIntervals.get(name).clone();
            Arrays.sort(own);
            for (int j = 0; j < own.length; j++) {
                if (j > 0 && own[j] == own[j - 1]) {
                    continue;
                }
                for (int r = v.firstOf(own[j]); r < v.size && v.interval[r] == own[j]; r++) {
                    ownStarts.add(v.start[r]);
                    ownEnds.add(v.end[r]);
                }
            }
            Segments mine = Segments.of(ownStarts.array(), ownEnds.array(), ownStarts.size());
            // Pieces of N's own coverage (value k) inside N's communication: both sorted, disjoint.
            int i = 0;
            int r = 0;
            while (i < mine.size && r < c.size()) {
                long a = Math.max(mine.start[i], c.start(r));
                long b = Math.min(mine.end[i], c.end(r));
                if (a < b) {
                    q.add(name, a, b, mine.value[i]);
                }
                if (mine.end[i] < c.end(r)) {
                    i++;
                } else {
                    r++;
                }
            }
        }
        q.answer(d, hidden);
        return hidden;
    }

    /** V_i: the pieces of each interval merged, ordered by interval then start. */
    private Runs unionPerInterval(int n) {
        long[] key = new long[n];
        for (int p = 0; p < n; p++) {
            key[p] = pieceInterval.get(p);
        }
        int[] order = PrimitiveSort.indexesSortedBy(key, pieceStart.array(), n);
        Runs out = new Runs(n);
        for (int p : order) {
            int interval = pieceInterval.get(p);
            long s = pieceStart.get(p);
            long e = pieceEnd.get(p);
            int last = out.size - 1;
            if (last >= 0 && out.interval[last] == interval && s <= out.end[last]) {
                out.end[last] = Math.max(out.end[last], e);
            } else {
                out.interval[out.size] = interval;
                out.start[out.size] = s;
                out.end[out.size] = e;
                out.size++;
            }
        }
        return out;
    }

    /** Disjoint runs per interval, by interval then start. */
    private static final class Runs {
        final int[] interval;
        final long[] start;
        final long[] end;
        int size;

        Runs(int capacity) {
            interval = new int[capacity];
            start = new long[capacity];
            end = new long[capacity];
        }

        /** The first run of {@code id} (or where it would be). */
        int firstOf(int id) {
            int lo = 0;
            int hi = size;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (interval[mid] < id) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /** A count of covering runs as a step function: its segments of positive value, by start. */
    static final class Segments {
        final long[] start;
        final long[] end;
        final int[] value;
        final int size;

        private Segments(long[] start, long[] end, int[] value, int size) {
            this.start = start;
            this.end = end;
            this.value = value;
            this.size = size;
        }

        /** How many of the {@code n} runs {@code [s, e)} cover each point (runs of positive length). */
        static Segments of(long[] s, long[] e, int n) {
            long[] starts = Arrays.copyOf(s, n);
            long[] ends = Arrays.copyOf(e, n);
            Arrays.sort(starts);
            Arrays.sort(ends);
            long[] outS = new long[2 * n];
            long[] outE = new long[2 * n];
            int[] outV = new int[2 * n];
            int m = 0;
            int i = 0;
            int j = 0;
            int count = 0;
            while (j < n) {
                long x = i < n ? Math.min(starts[i], ends[j]) : ends[j];
                while (i < n && starts[i] == x) {
                    count++;
                    i++;
                }
                while (j < n && ends[j] == x) {
                    count--;
                    j++;
                }
                if (count > 0) {
                    long next = i < n ? Math.min(starts[i], ends[j]) : ends[j];
                    outS[m] = x;
                    outE[m] = next;
                    outV[m] = count;
                    m++;
                }
            }
            return new Segments(outS, outE, outV, m);
        }

        /** The first segment ending after {@code t}, or {@code size}. */
        int firstEndingAfter(long t) {
            return IntervalSet.firstEndingAfter(end, size, t);
        }
    }

    /** "How long is the count at most k over [a, b)", gathered, then answered together. */
    private static final class Questions {
        private final IntList name = new IntList(64);
        private final LongList from = new LongList(64);
        private final LongList to = new LongList(64);
        private final LongList atMost = new LongList(64);

        void add(int who, long a, long b, int k) {
            name.add(who);
            from.add(a);
            to.add(b);
            atMost.add(k);
        }

        /** Subtracts each answer from its name's total in {@code hidden}. */
        void answer(Segments d, long[] hidden) {
            int n = name.size();
            if (n == 0) {
                return;
            }
            long[] segValue = new long[d.size];
            for (int j = 0; j < d.size; j++) {
                segValue[j] = d.value[j];
            }
            int[] segOrder = PrimitiveSort.indexesSortedBy(segValue, d.size);
            int[] order = PrimitiveSort.indexesSortedBy(atMost.array(), n);
            long[] fenwick = new long[d.size + 1];
            int added = 0;
            for (int qi : order) {
                long k = atMost.get(qi);
                while (added < d.size && segValue[segOrder[added]] <= k) {
                    int j = segOrder[added++];
                    for (int f = j + 1; f <= d.size; f += f & -f) {
                        fenwick[f] += d.end[j] - d.start[j];
                    }
                }
                long a = from.get(qi);
                long b = to.get(qi);
                int first = d.firstEndingAfter(a);
                // The last segment starting before b; the two ends are clipped, the middle summed.
                int last = first - 1;
                int lo = first;
                int hi = d.size - 1;
                while (lo <= hi) {
                    int mid = (lo + hi) >>> 1;
                    if (d.start[mid] < b) {
                        last = mid;
                        lo = mid + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
                long sum = 0;
                if (first <= last) {
                    sum += clipped(d, first, a, b, k);
                    if (last > first) {
                        sum += clipped(d, last, a, b, k);
                        sum += prefix(fenwick, last) - prefix(fenwick, first + 1);
                    }
                }
                hidden[name.get(qi)] -= sum;
            }
        }

        private static long clipped(Segments d, int j, long a, long b, long k) {
            return d.value[j] <= k ? Math.max(0, Math.min(b, d.end[j]) - Math.max(a, d.start[j])) : 0;
        }

        /** Sum of segments {@code 0 .. j-1} added so far. */
        private static long prefix(long[] fenwick, int j) {
            long s = 0;
            for (int f = j; f > 0; f -= f & -f) {
                s += fenwick[f];
            }
            return s;
        }
    }
}
