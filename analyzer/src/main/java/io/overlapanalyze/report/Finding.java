package io.overlapanalyze.report;

import java.util.List;

/**
 * One answer to "why is my step slow, and what do I change?" (metrics.md §13), ranked by what it
 * could save. JSON field names are a contract: do not rename.
 *
 * @param kind       what was found ({@link FindingKind} name)
 * @param savingNs   per step, median over complete steps: what the step would lose if the cause
 *                   vanished (an upper bound); {@code null} when it has no time of its own (a
 *                   collective mismatch, ranked first)
 * @param shareOfStep savingNs / median step period; {@code null} with savingNs or without a period
 * @param ranks      the ranks it applies to, ascending
 * @param evidence   the numbers it rests on, one line
 * @param action     what to change, one line
 */
public record Finding(String kind, Long savingNs, Double shareOfStep, List<Integer> ranks, String evidence,
                      String action) implements java.io.Serializable {
    public Finding {
        ranks = ranks == null ? List.of() : List.copyOf(ranks);
    }
}
