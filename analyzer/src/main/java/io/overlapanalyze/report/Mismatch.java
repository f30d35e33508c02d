package io.overlapanalyze.report;

import java.util.List;

/**
 * A divergence between ranks in one group (metrics.md §8, Flight Recorder rules).
 *
 * @param group     group display name (as in {@link GroupSummary#group()})
 * @param index     0-based position in the group's issue order, or the sequence number when matched by Seq
 * @param kind      TYPE, SIZE, DTYPE or MISSING
 * @param severity  ERROR when group metadata exists, WARNING when the group is inferred
 * @param step      the step the first listed rank issued it in, or {@code null}
 * @param ranks     every member's values at that position
 * @param culprits  the ranks that differ from the majority (or that lack the collective)
 * @param following how many later positions of the group also diverge
 * @param message   one line for people
 */
public record Mismatch(String group, long index, MismatchKind kind, Severity severity, String step,
                       List<RankValues> ranks, List<Integer> culprits, int following, String message)
                               implements java.io.Serializable {
    public Mismatch {
        ranks = List.copyOf(ranks);
        culprits = List.copyOf(culprits);
    }

    public enum MismatchKind { TYPE, SIZE, DTYPE, MISSING }

    public enum Severity { ERROR, WARNING }

    /**
     * One rank's collective at the position.
     *
     * @param rank        rank
     * @param present     false when the rank has no collective there
     * @param type        collective type, or {@code null} when absent
     * @param inElements  input elements, or {@code null} when unknown
     * @param outElements output elements, or {@code null} when unknown
     * @param dtype       dtype, or {@code null}
     * @param threadId    issuing host thread id, or {@code null}
     * @param thread      the thread's role, comparable across ranks ({@code main}, {@code 2nd}...), and name
     * @param issued      how many collectives the rank issued in the group
     */
    public record RankValues(int rank, boolean present, String type, Long inElements, Long outElements, String dtype,
                             Long threadId, String thread, int issued) implements java.io.Serializable {
    }
}
