package io.overlapanalyze.crossrank.digest;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Equal values of one job's digests held once: names (steps, collectives, data types, chain links)
 * and process groups. Each reader builds its ranks' names anew, so 1,024 ranks of 300 steps hold
 * about six equal strings per rank and step, and each rank its own copy of a 1,024-rank group: a
 * third of what the digests of such a job hold (docs/PERFORMANCE.md, "The job path's memory").
 * Thread-safe: the readers digest their ranks in parallel. It holds each distinct value once, so it
 * grows with the distinct names of the job, which its digests hold anyway; it lives as long as the job.
 */
public final class SharedValues {
    private final ConcurrentHashMap<Object, Object> held = new ConcurrentHashMap<>();

    /** The job's instance equal to {@code value} ({@code value} itself the first time), or {@code null} for null. */
    @SuppressWarnings("unchecked") // the value found equals a T, and records and strings equal only their own kind
    public <T> T of(T value) {
        if (value == null) {
            return null;
        }
        Object before = held.putIfAbsent(value, value);
        return before == null ? value : (T) before;
    }
}
