package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.report.Mismatch.MismatchKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Flight Recorder's consistency rules for one position (metrics.md §8), in its order: missing,
 * type, size, dtype. Unknown values (a kernel-only collective without args: type UNKNOWN, sizes
 * -1, dtype null) match anything: the rules judge what the traces say, never what they omit.
 *
 * <p>Sizes: inputs must agree except all_to_all/scatter, outputs except all_to_all/gather;
 * all_reduce in = out; all_gather out = in × n; reduce_scatter in = out × n; all_to_all is
 * compared by totals (Σ in = Σ out over the ranks).
 */
final class MismatchRules {
    private MismatchRules() {
    }

    /** How the ranks disagree at one position: the kind, and the ranks that differ (absent ones for MISSING). */
    record Disagreement(MismatchKind kind, List<Integer> culprits) {
    }

    static Disagreement check(Slot slot, List<Integer> members, int groupSize) {
        List<Integer> absent = new ArrayList<>();
        for (int r : members) {
            if (!slot.byRank().containsKey(r)) {
                absent.add(r);
            }
        }
        if (!absent.isEmpty()) {
            return new Disagreement(MismatchKind.MISSING, absent);
        }
        Map<Integer, Collective> c = slot.byRank();
        List<Integer> odd = odd(c, x -> x.type() == CollectiveType.UNKNOWN ? null : x.type());
        if (!odd.isEmpty()) {
            return new Disagreement(MismatchKind.TYPE, odd);
        }
        CollectiveType type = c.values().stream().map(Collective::type).filter(t -> t != CollectiveType.UNKNOWN)
                .findFirst().orElse(CollectiveType.UNKNOWN);
        List<Integer> size = sizeCulprits(c, type, groupSize);
        if (!size.isEmpty()) {
            return new Disagreement(MismatchKind.SIZE, size);
        }
        odd = odd(c, Collective::dtype);
        if (!odd.isEmpty()) {
            return new Disagreement(MismatchKind.DTYPE, odd);
        }
        return null;
    }

    private static List<Integer> sizeCulprits(Map<Integer, Collective> c, CollectiveType type, int n) {
        List<Integer> out = new ArrayList<>();
        if (type == CollectiveType.ALL_TO_ALL) {
            long in = 0;
            long outSum = 0;
            for (Collective x : c.values()) {
                if (x.inElements() < 0 || x.outElements() < 0) {
                    return out; // a total with an unknown term cannot be judged
                }
                in += x.inElements();
                outSum += x.outElements();
            }
            if (in != outSum) {
                out.addAll(c.keySet());
            }
            return out;
        }
        if (type != CollectiveType.SCATTER) {
            out.addAll(odd(c, x -> x.inElements() < 0 ? null : x.inElements()));
        }
        if (type != CollectiveType.GATHER) {
            for (int r : odd(c, x -> x.outElements() < 0 ? null : x.outElements())) {
                if (!out.contains(r)) {
                    out.add(r);
                }
            }
        }
        for (Map.Entry<Integer, Collective> e : c.entrySet()) {
            long in = e.getValue().inElements();
            long o = e.getValue().outElements();
            if (in < 0 || o < 0) {
                continue;
            }
            boolean ok = switch (type) {
                case ALL_REDUCE -> in == o;
                case ALL_GATHER -> o == in * n;
                case REDUCE_SCATTER -> in == o * n;
                default -> true;
            };
            if (!ok && !out.contains(e.getKey())) {
                out.add(e.getKey());
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Ranks whose known value differs from the most common known value (ties: the value of the
     * lowest rank); empty when all known values agree.
     */
    static <T> List<Integer> odd(Map<Integer, Collective> c, Function<Collective, T> value) {
        Map<T, Integer> counts = new HashMap<>();
        T first = null;
        for (Collective x : c.values()) {
            T v = value.apply(x);
            if (v != null) {
                counts.merge(v, 1, Integer::sum);
                if (first == null) {
                    first = v;
                }
            }
        }
        if (counts.size() <= 1) {
            return List.of();
        }
        T majority = first;
        for (Map.Entry<T, Integer> e : counts.entrySet()) {
            if (e.getValue() > counts.get(majority)) {
                majority = e.getKey();
            }
        }
        List<Integer> out = new ArrayList<>();
        for (Map.Entry<Integer, Collective> e : c.entrySet()) {
            T v = value.apply(e.getValue());
            if (v != null && !Objects.equals(v, majority)) {
                out.add(e.getKey());
            }
        }
        return out;
    }
}
