package io.overlapanalyze.analysis;

/**
 * An {@link IntervalSet} with the running total of its lengths, so that {@code |X ∩ [from, to)|}
 * costs two binary searches, however many runs lie inside (asked once per run of every annotation
 * name's communication, the walk of {@link IntervalSet#lengthWithin} would be quadratic in names).
 */
final class PrefixLengths {
    private final IntervalSet set;
    /** {@code before[k]}: total length of runs {@code 0 .. k-1}. */
    private final long[] before;

    PrefixLengths(IntervalSet set) {
        this.set = set;
        before = new long[set.size() + 1];
        for (int k = 0; k < set.size(); k++) {
            before[k + 1] = before[k] + set.end(k) - set.start(k);
        }
    }

    /** |X ∩ [from, to)|. O(log n). */
    long within(long from, long to) {
        return to <= from ? 0 : upTo(to) - upTo(from);
    }

    /** |X ∩ (−∞, t)|. */
    private long upTo(long t) {
        int k = set.firstRunEndingAfter(t);
        long total = before[k];
        if (k < set.size() && set.start(k) < t) {
            total += t - set.start(k);
        }
        return total;
    }

    /** |X ∩ Y| for a set {@code y} of disjoint runs: O(|Y| log |X|). */
    long intersectionLength(IntervalSet y) {
        long total = 0;
        for (int r = 0; r < y.size(); r++) {
            total += within(y.start(r), y.end(r));
        }
        return total;
    }
}
