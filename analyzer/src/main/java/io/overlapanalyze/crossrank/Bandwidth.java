package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.report.BandwidthByType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Algorithm and bus bandwidth per collective with nccl-tests conventions (metrics.md §9):
 * {@code algBw = bytes / transfer} in decimal GB/s (bytes per ns is exactly GB/s), bytes being the
 * full buffer (max of in and out, as the reader stores it), transfer the min duration over ranks
 * (the rank that waited least saw the pure transfer); bus factor {@code 2(n−1)/n} for all_reduce,
 * {@code (n−1)/n} for all_gather, reduce_scatter and all_to_all, 1 for broadcast, reduce and
 * point-to-point; none for barriers and unknown types.
 */
final class Bandwidth {
    private Bandwidth() {
    }

    static Double busFactor(CollectiveType type, int n) {
        if (n < 1) {
            return null;
        }
        return switch (type) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL -> (double) (n - 1) / n;
            case BROADCAST, REDUCE, SEND, RECV, GATHER, SCATTER -> 1.0;
            default -> null;
        };
    }

    /** The bytes every rank agrees on, or {@code null} when unknown on some rank or different. */
    static Long commonBytes(Slot s) {
        Long b = null;
        for (Collective c : s.byRank().values()) {
            if (c.bytes() < 0 || (b != null && b != c.bytes())) {
                return null;
            }
            b = c.bytes();
        }
        return b;
    }

    static Double algBw(Long bytes, Long transferNs) {
        return bytes == null || transferNs == null || transferNs <= 0 ? null : (double) bytes / transferNs;
    }

    static List<BandwidthByType> byType(List<SkewAnalysis.Timing> timings, Map<Slot, Integer> groupSizes) {
        Map<CollectiveType, List<SkewAnalysis.Timing>> byType = new LinkedHashMap<>();
        for (SkewAnalysis.Timing t : timings) {
            byType.computeIfAbsent(type(t.slot()), k -> new ArrayList<>()).add(t);
        }
        List<BandwidthByType> out = new ArrayList<>();
        for (Map.Entry<CollectiveType, List<SkewAnalysis.Timing>> e : byType.entrySet()) {
            int withSize = 0;
            long bytes = 0;
            long transfer = 0;
            List<Double> bus = new ArrayList<>();
            Double factor = null;
            boolean oneFactor = true;
            for (SkewAnalysis.Timing t : e.getValue()) {
                Long b = commonBytes(t.slot());
                if (b == null || t.transferNs() <= 0) {
                    continue;
                }
                withSize++;
                bytes += b;
                transfer += t.transferNs();
                Double f = busFactor(e.getKey(), groupSizes.get(t.slot()));
                if (factor != null && f != null && !factor.equals(f)) {
                    oneFactor = false;
                }
                factor = f;
                if (f != null) {
                    bus.add((double) b / t.transferNs() * f);
                }
            }
            Double alg = transfer > 0 ? (double) bytes / transfer : null;
            Double busBw = alg != null && factor != null && oneFactor ? alg * factor : null;
            out.add(new BandwidthByType(e.getKey().name(), e.getValue().size(), withSize, bytes, transfer, alg, busBw,
                    bus.isEmpty() ? null : SkewAnalysis.medianDouble(bus)));
        }
        return out;
    }

    static CollectiveType type(Slot s) {
        for (Collective c : s.byRank().values()) {
            if (c.type() != CollectiveType.UNKNOWN) {
                return c.type();
            }
        }
        return CollectiveType.UNKNOWN;
    }
}
