package io.overlapanalyze.compare;

/** What a compared metric's numbers mean; decides exact long vs double arithmetic. */
public enum MetricUnit {
    /** Nanoseconds (exact {@code long}). */
    NS,
    /** A fraction in [0, 1] ({@code double}); shown as a percentage. */
    RATIO,
    /** A count per step (exact {@code long}). */
    COUNT,
    /** Bytes (exact {@code long}). */
    BYTES;

    /** True when values are whole numbers held exactly as {@code long}. */
    public boolean integral() {
        return this != RATIO;
    }
}
