package io.overlapanalyze.model;

/**
 * A host-side span the analyzer uses for steps and phases.
 *
 * @param kind     what the span marks
 * @param name     the span's name as written in the trace ("ProfilerStep#4")
 * @param startNs  host start
 * @param endNs    host end (exclusive)
 * @param threadId the host thread that recorded it
 */
public record HostSpan(HostSpanKind kind, String name, long startNs, long endNs, long threadId) {
    public boolean contains(long t) {
        return t >= startNs && t < endNs;
    }
}
