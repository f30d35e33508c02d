package io.overlapanalyze.report;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Rank ids as ranges of consecutive ids, and the ranges as text ("2-127", "3, 5, 9-11"). */
public final class RankRanges {
    private RankRanges() {
    }

    /** The ranges of {@code ranks} (any order, repeats allowed), ascending. */
    public static List<RankRange> of(List<Integer> ranks) {
        int[] v = ranks.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
        List<RankRange> out = new ArrayList<>();
        int i = 0;
        while (i < v.length) {
            int j = i;
            while (j + 1 < v.length && v[j + 1] == v[j] + 1) {
                j++;
            }
            out.add(new RankRange(v[i], v[j]));
            i = j + 1;
        }
        return out;
    }

    /** How many ranks the ranges hold. */
    public static long count(List<RankRange> ranges) {
        return ranges.stream().mapToLong(RankRange::count).sum();
    }

    /**
     * "2-127" or "3, 5, 9-11": {@code dash} between the ends of a range; with {@code pairsApart} two
     * consecutive ranks are written "9, 10".
     */
    public static String text(List<RankRange> ranges, String dash, boolean pairsApart) {
        return ranges.stream().map(r -> r.from() == r.to() ? Integer.toString(r.from())
                : pairsApart && r.to() == r.from() + 1 ? r.from() + ", " + r.to() : r.from() + dash + r.to())
                .collect(Collectors.joining(", "));
    }

    /**
     * Rank lists as people read them: "0–3, 5, 7–9" (runs of three or more as ranges, an en dash
     * between their ends), so a list of a thousand ranks stays one short line; "" for none.
     */
    public static String text(java.util.Collection<Integer> ranks) {
        return text(of(new ArrayList<>(ranks)), "–", true);
    }
}
