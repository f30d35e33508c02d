package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.ProcessGroup;

import java.util.ArrayList;
import java.util.List;

/**
 * Process-group identity across ranks (metrics.md §8): name + member ranks when the trace says;
 * one implicit group for collectives without any group metadata.
 *
 * @param key      identity
 * @param display  name for reports: the group name, its description in parentheses, or {@code implicit}
 * @param inferred true for the implicit group: mismatches in it are warnings
 * @param ranks    declared member ranks, sorted; empty when unknown
 */
record GroupKey(String key, String display, boolean inferred, List<Integer> ranks) {
    static final GroupKey IMPLICIT = new GroupKey("implicit", "implicit", true, List.of());

    static GroupKey of(Collective c) {
        ProcessGroup g = c.group();
        if (g == null) {
            return IMPLICIT;
        }
        List<Integer> ranks = new ArrayList<>(g.ranks());
        ranks.sort(null);
        String name = g.name() != null ? g.name() : (g.description() != null ? g.description() : "?");
        String display = g.description() != null && g.name() != null ? g.name() + " (" + g.description() + ")" : name;
        return new GroupKey(name + "|" + ranks, display, false, List.copyOf(ranks));
    }
}
