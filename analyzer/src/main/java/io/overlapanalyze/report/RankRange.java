package io.overlapanalyze.report;

/**
 * Consecutive rank ids {@code from .. to}, both included (the missing ranks of a job, as ranges:
 * a job of 10^5 ranks with two traces is two numbers, not 10^5). JSON field names are a contract.
 */
public record RankRange(int from, int to) implements java.io.Serializable {
    public RankRange {
        if (to < from) {
            throw new IllegalArgumentException("rank range " + from + "-" + to + " ends before it starts");
        }
    }

    /** How many ranks it holds. */
    public long count() {
        return (long) to - from + 1;
    }
}
