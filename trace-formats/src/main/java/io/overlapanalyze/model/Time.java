package io.overlapanalyze.model;

/**
 * Conventions for time values in the model. Every time is a {@code long} count of nanoseconds
 * on the rank's own clock; no timestamp is ever routed through {@code double}.
 */
public final class Time {
    /** Marks a time that the trace does not provide (a launch without a host event, say). */
    public static final long UNKNOWN = Long.MIN_VALUE;

    private Time() {
    }

    public static boolean isKnown(long t) {
        return t != UNKNOWN;
    }
}
