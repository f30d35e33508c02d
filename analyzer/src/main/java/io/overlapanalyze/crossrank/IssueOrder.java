package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.Time;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank's collectives per process group, in issue order (metrics.md §8): host enqueue order
 * when every collective of the group has an enqueue time, otherwise device start order (a
 * mixture of the two would compare host and device clocks). Collectives launched before the
 * capture are left out: they belong to no step, and whether a peer's capture caught the same
 * operation depends on when each profiler started.
 */
final class IssueOrder {
    private IssueOrder() {
    }

    static Map<GroupKey, List<Collective>> of(RankView rank) {
        Map<GroupKey, List<Collective>> byGroup = new LinkedHashMap<>();
        // A group's key spells its member ranks: made once per group, not once per collective.
        Map<ProcessGroup, GroupKey> keyOfGroup = new IdentityHashMap<>();
        for (Collective c : rank.trace.collectives()) {
            if (launchedBeforeCapture(rank, c)) {
                continue; // its peers' counterparts were issued before their captures too: not matched
            }
            GroupKey key = c.group() == null ? GroupKey.of(c) : keyOfGroup.computeIfAbsent(c.group(), GroupKey::of);
            byGroup.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
        }
        for (List<Collective> list : byGroup.values()) {
            boolean allEnqueued = list.stream().allMatch(c -> c.enqueueNs() != Time.UNKNOWN);
            Comparator<Collective> order = allEnqueued
                    ? Comparator.comparingLong(Collective::enqueueNs)
                    : Comparator.comparingLong(c -> {
                        long s = rank.start(c);
                        return s == Time.UNKNOWN ? Long.MAX_VALUE : s;
                    });
            list.sort(order.thenComparingInt(Collective::id));
        }
        return byGroup;
    }

    /** True when every device interval of the collective was launched before the capture (metrics.md §2). */
    static boolean launchedBeforeCapture(RankView rank, Collective c) {
        int[] iv = c.deviceIntervals();
        if (iv.length == 0) {
            return false;
        }
        for (int i : iv) {
            if (!rank.trace.device().preCapture(i)) {
                return false;
            }
        }
        return true;
    }
}
