package io.overlapanalyze.report;

import java.util.List;

/**
 * The {@code hang} section: what a set of PyTorch Flight Recorder dumps says about a hung job
 * (metrics.md §8 rules on the dumps' sequence numbers). JSON field names are a contract: add, never
 * rename.
 *
 * @param verdict     one line naming the divergence that holds the most ranks, or that none was found
 * @param divergences per process group (and per kind: collectives, point-to-point), the first
 *                    operation where the ranks diverge; the verdict's first
 * @param ranks       per rank named missing anywhere: in which groups, and whether it is missing
 *                    everywhere it takes part (likely crashed or stuck before) or only in some
 * @param notes       what the analysis assumed (e.g. a group status tied to its name by creation order)
 */
public record HangReport(String verdict, List<HangDivergence> divergences, List<HangRank> ranks,
                         List<String> notes) implements java.io.Serializable {
    public HangReport {
        divergences = List.copyOf(divergences);
        ranks = List.copyOf(ranks);
        notes = List.copyOf(notes);
    }

    /**
     * The first divergence of one group.
     *
     * @param group       group name ({@code pg_config} key)
     * @param description group description, or {@code null}
     * @param members     the group's ranks
     * @param p2p         whether it is about point-to-point operations (matched by pair)
     * @param kind        {@code MISSING}, {@code TYPE}, {@code SIZE} or {@code DTYPE} (§8)
     * @param sequence    the sequence number ({@code collective_seq_id}, {@code p2p_seq_id} for p2p)
     * @param operation   the operation the waiting ranks enqueued there ({@code nccl:all_to_all}), or {@code null}
     * @param shape       its first input's shape ({@code 2048x5120}), or {@code null}
     * @param dtype       its first input's dtype, or {@code null}
     * @param missing     ranks that never enqueued it (MISSING), or ranks without a dump
     * @param mismatched  ranks that enqueued something else there (TYPE, SIZE, DTYPE)
     * @param waiting     ranks that enqueued it and wait for the others
     * @param blocking    how many ranks have this as their oldest pending operation that takes part in a divergence
     * @param progress    per member, how far it got in this group
     */
    public record HangDivergence(String group, String description, List<Integer> members, boolean p2p, String kind,
                                 long sequence, String operation, String shape, String dtype, List<Integer> missing,
                                 List<Integer> mismatched, List<Integer> waiting, int blocking,
                                 List<RankProgress> progress) implements java.io.Serializable {
        public HangDivergence {
            members = List.copyOf(members);
            missing = List.copyOf(missing);
            mismatched = List.copyOf(mismatched);
            waiting = List.copyOf(waiting);
            progress = List.copyOf(progress);
        }
    }

    /**
     * One member's progress in a group.
     *
     * @param rank          the rank
     * @param lastEnqueued  its last enqueued sequence number, or {@code null} when its dump does not say
     * @param lastStarted   last started (the dump's status; -1 there is {@code null}: not recorded)
     * @param lastCompleted last completed, or {@code null}
     * @param atSequence    what it enqueued at the divergence ({@code nccl:all_to_all 2086x5120 BFloat16}),
     *                      or {@code null} when it did not or its buffer no longer holds it
     * @param hasDump       whether a dump of this rank was given
     */
    public record RankProgress(int rank, Long lastEnqueued, Long lastStarted, Long lastCompleted, String atSequence,
                               boolean hasDump) implements java.io.Serializable {
    }

    /**
     * A rank missing somewhere.
     *
     * @param rank      the rank
     * @param missingIn groups where it is missing
     * @param waitingIn groups where it waits for others
     * @param verdict   {@code NO_DUMP}, {@code MISSING_EVERYWHERE} (in every divergent group it belongs to,
     *                  waiting in none: likely crashed or stuck before these operations) or
     *                  {@code MISSING_SOMEWHERE} (held up: it waits elsewhere)
     * @param lastOperation the newest operation its buffer holds ({@code group 72 nccl:all_to_all #44790 scheduled}), or {@code null}
     */
    public record HangRank(int rank, List<String> missingIn, List<String> waitingIn, String verdict,
                           String lastOperation) implements java.io.Serializable {
        public HangRank {
            missingIn = List.copyOf(missingIn);
            waitingIn = List.copyOf(waitingIn);
        }
    }
}
