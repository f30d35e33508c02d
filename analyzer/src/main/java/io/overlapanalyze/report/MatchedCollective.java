package io.overlapanalyze.report;

import java.util.Map;

/**
 * One collective matched on every member of its group, with its timing across ranks.
 *
 * @param group         group display name
 * @param index         position in the group (or Seq)
 * @param type          type
 * @param step          step name on the lowest rank, or {@code null}
 * @param bytes         message bytes when known and equal on every rank, else {@code null}
 * @param groupSize     n of the bus factor
 * @param arrivalSkewNs latest − earliest aligned arrival, {@code null} when not timed
 * @param endSkewNs     latest − earliest aligned end, {@code null} when not timed
 * @param transferNs    min duration over ranks, {@code null} when not timed
 * @param lastRank      the rank that arrived strictly last, or {@code null}
 * @param algBwGBps     bytes / transfer, or {@code null}
 * @param busBwGBps     algBw × bus factor, or {@code null}
 * @param waitsNs       per member rank, {@code wait_r} = latest aligned arrival − its aligned arrival
 *                      (the time it sat in the collective waiting for the last peer); {@code null} when not timed
 */
public record MatchedCollective(String group, long index, String type, String step, Long bytes, int groupSize,
                                Long arrivalSkewNs, Long endSkewNs, Long transferNs, Integer lastRank,
                                Double algBwGBps, Double busBwGBps, Map<Integer, Long> waitsNs)
                                        implements java.io.Serializable {
    public MatchedCollective {
        waitsNs = waitsNs == null ? null : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(waitsNs));
    }
}
