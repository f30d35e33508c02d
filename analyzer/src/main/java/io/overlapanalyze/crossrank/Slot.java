package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;

import java.util.Map;
import java.util.TreeMap;

/**
 * One position of a group across ranks: the collective each rank issued there (absent ranks
 * have no entry).
 *
 * @param index 0-based position in issue order, or the sequence number
 */
record Slot(GroupKey group, long index, Map<Integer, Collective> byRank) {
    Slot {
        byRank = new TreeMap<>(byRank);
    }

    boolean complete(java.util.Collection<Integer> members) {
        return byRank.keySet().containsAll(members);
    }
}
