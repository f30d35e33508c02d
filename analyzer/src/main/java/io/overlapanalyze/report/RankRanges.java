package io.overlapanalyze.report;

import java.util.Collection;
import java.util.TreeSet;

/**
 * Rank lists as people read them: runs of consecutive ranks as ranges ("0–63, 70"), so a list of
 * a thousand ranks stays one short line.
 */
public final class RankRanges {
    private RankRanges() {
    }

    /** "0–3, 5, 7–9" for {0,1,2,3,5,7,8,9}; "" for none. Duplicates count once. */
    public static String of(Collection<Integer> ranks) {
        StringBuilder sb = new StringBuilder();
        Integer start = null;
        Integer previous = null;
        for (int r : new TreeSet<>(ranks)) {
            if (previous != null && r == previous + 1) {
                previous = r;
                continue;
            }
            append(sb, start, previous);
            start = r;
            previous = r;
        }
        append(sb, start, previous);
        return sb.toString();
    }

    private static void append(StringBuilder sb, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (sb.length() > 0) {
            sb.append(", ");
        }
        sb.append(start);
        if (end > start) {
            sb.append(end == start + 1 ? ", " : "–").append(end);
        }
    }
}
