package io.overlapanalyze.report;

/**
 * A step whose tail ends with a collective that spent most of its time on this rank waiting for a
 * late peer (metrics.md §8 "Advice agrees with the whole job"): a smaller bucket cannot shorten
 * such a tail; the late rank must arrive sooner.
 *
 * @param rank        the rank whose tail it is
 * @param step        step name
 * @param type        the last collective's type
 * @param durationNs  its device duration on this rank
 * @param waitNs      {@code wait_r}: the part of it spent waiting for the last peer to arrive (aligned clocks)
 * @param lateRank    the rank that arrived last, or {@code null} when several arrived last together
 */
public record PeerBoundTail(int rank, String step, String type, long durationNs, long waitNs, Integer lateRank)
        implements java.io.Serializable {
}
