package io.overlapanalyze.crossrank;

import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.ProcessGroup;

import java.util.ArrayList;
import java.util.List;

/**
 * Process-group identity across ranks (metrics.md §8): name + member ranks when the trace says;
 * one implicit group for collectives without any group metadata, except expert-parallel token
 * exchange (DeepEP-style dispatch / combine kernels, which no CPU op describes): a dispatch and its
 * combine are collectives of one expert-parallel group, inferred like the implicit one, so that they
 * are matched among themselves and not interleaved with data-parallel traffic in issue order.
 *
 * @param key      identity
 * @param display  name for reports: the group name, its description in parentheses, or {@code implicit}
 * @param inferred true for the implicit group: mismatches in it are warnings
 * @param ranks    declared member ranks, sorted; empty when unknown
 */
record GroupKey(String key, String display, boolean inferred, List<Integer> ranks) {
    static final GroupKey IMPLICIT = new GroupKey("implicit", "implicit", true, List.of());
    static final GroupKey EXPERT_PARALLEL = new GroupKey("expert-parallel", "expert-parallel", true, List.of());

    static GroupKey of(Collective c) {
        ProcessGroup g = c.group();
        if (g == null) {
            return c.type() == CollectiveType.ALL_TO_ALL && KernelRules.isExpertParallelKernel(c.name())
                    ? EXPERT_PARALLEL : IMPLICIT;
        }
        return of(g);
    }

    /** The key of a declared group: its name and sorted member ranks (as long as the group). */
    static GroupKey of(ProcessGroup g) {
        List<Integer> ranks = new ArrayList<>(g.ranks());
        ranks.sort(null);
        String name = g.name() != null ? g.name() : (g.description() != null ? g.description() : "?");
        String display = g.description() != null && g.name() != null ? g.name() + " (" + g.description() + ")" : name;
        return new GroupKey(name + "|" + ranks, display, false, List.copyOf(ranks));
    }

    /**
     * The key's hash, which a string keeps once computed: a rank's collectives are grouped by key
     * one by one, and the record's own hash would walk a thousand-rank group's member list each time.
     * Equal keys have equal {@code key} strings, so this agrees with {@code equals}.
     */
    @Override
    public int hashCode() {
        return key.hashCode();
    }
}
