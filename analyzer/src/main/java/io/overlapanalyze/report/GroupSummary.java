package io.overlapanalyze.report;

import java.util.List;
import java.util.Map;

/**
 * How one process group's collectives were matched across ranks.
 *
 * @param group       display name: the group name (and description), or {@code implicit} when no trace says
 * @param inferred    true when no group metadata exists: one implicit group, matched by issue order
 * @param members     analysed ranks that belong to it
 * @param matchedBy   SEQUENCE (Kineto {@code Seq}), ORDER (issue order), or TYPE_ORDER (by type and order
 *                    within the type, used for timing after an inferred order difference)
 * @param counts      collectives per rank
 * @param matched     positions every member issued (and used for timing)
 * @param leftOutFrom index (or Seq) of the first position left out of timing because the group diverged
 *                    there or earlier (metrics.md §8: after a divergence the sequence may be shifted on
 *                    some rank, so no waits, stragglers or offsets come from it or anything later);
 *                    {@code null} when no position was left out for that reason
 */
public record GroupSummary(String group, boolean inferred, List<Integer> members, String matchedBy,
                           Map<Integer, Integer> counts, int matched, Long leftOutFrom) implements java.io.Serializable {
    public GroupSummary {
        members = List.copyOf(members);
        counts = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(counts));
    }
}
