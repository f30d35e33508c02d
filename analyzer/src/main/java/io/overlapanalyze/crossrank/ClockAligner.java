package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.report.ClockAlignment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Clock offsets from collective end times (metrics.md §8). A collective cannot finish on any rank
 * before the last rank arrived, so the ranks of a collective every rank joined end at nearly the
 * same instant; rank r's offset is the median over those collectives of {@code end_r − mean end}.
 * Fewer than {@link #MIN_COLLECTIVES} such collectives: no alignment, and the report says so.
 *
 * <p>Exact arithmetic: ends are taken relative to the lowest rank's end (epoch ns times the rank
 * count could overflow a long), {@code n·end_r − Σ end} is exact, and only the median is divided
 * by n, rounded half away from zero.
 */
final class ClockAligner {
    static final int MIN_COLLECTIVES = 3;

    private ClockAligner() {
    }

    record Result(ClockAlignment alignment, Map<Integer, Long> offsets) {
        long offset(int rank) {
            return offsets.getOrDefault(rank, 0L);
        }
    }

    static Result align(List<Slot> timing, List<Integer> allRanks, Map<Integer, RankView> views) {
        List<Slot> joined = new ArrayList<>();
        for (Slot s : timing) {
            if (s.byRank().keySet().containsAll(allRanks)
                    && allRanks.stream().allMatch(r -> views.get(r).timed(s.byRank().get(r)))) {
                joined.add(s);
            }
        }
        int n = allRanks.size();
        if (joined.size() < MIN_COLLECTIVES) {
            String note = "clocks not aligned: " + joined.size() + " collective" + (joined.size() == 1 ? "" : "s")
                    + " joined by every rank with device times (need " + MIN_COLLECTIVES
                    + "); cross-rank timing uses each rank's own clock";
            return new Result(new ClockAlignment(false, joined.size(), null, note), Map.of());
        }
        Map<Integer, long[]> scaled = new HashMap<>();
        for (int r : allRanks) {
            scaled.put(r, new long[joined.size()]);
        }
        for (int k = 0; k < joined.size(); k++) {
            Slot s = joined.get(k);
            long ref = views.get(allRanks.get(0)).end(s.byRank().get(allRanks.get(0)));
            long sum = 0;
            long[] rel = new long[n];
            for (int i = 0; i < n; i++) {
                int r = allRanks.get(i);
                rel[i] = views.get(r).end(s.byRank().get(r)) - ref;
                sum += rel[i];
            }
            for (int i = 0; i < n; i++) {
                scaled.get(allRanks.get(i))[k] = n * rel[i] - sum; // n · (end_r − mean end)
            }
        }
        Map<Integer, Long> offsets = new HashMap<>();
        for (int r : allRanks) {
            offsets.put(r, divRound(medianTimesTwo(scaled.get(r)), 2L * n));
        }
        long residual = 0;
        for (Slot s : joined) {
            long sum = 0;
            long[] aligned = new long[n];
            long ref = views.get(allRanks.get(0)).end(s.byRank().get(allRanks.get(0)));
            for (int i = 0; i < n; i++) {
                int r = allRanks.get(i);
                aligned[i] = views.get(r).end(s.byRank().get(r)) - ref - offsets.get(r);
                sum += aligned[i];
            }
            for (int i = 0; i < n; i++) {
                residual = Math.max(residual, Math.abs(divRound(n * aligned[i] - sum, n)));
            }
        }
        String note = "aligned on " + joined.size() + " collectives every rank joined";
        return new Result(new ClockAlignment(true, joined.size(), residual, note), offsets);
    }

    /** Twice the median (exact for an even count: the sum of the two middle values). */
    static long medianTimesTwo(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? 2 * v[m] : v[m - 1] + v[m];
    }

    static long divRound(long a, long b) {
        long q = a / b;
        long r = a % b;
        if (Math.abs(r) * 2 >= Math.abs(b)) {
            q += (a < 0) == (b < 0) ? 1 : -1;
        }
        return q;
    }

    /** The aligned start of a collective on its rank. */
    static long alignedStart(RankView view, Collective c, Result clocks) {
        return view.start(c) - clocks.offset(view.rank);
    }

    static long alignedEnd(RankView view, Collective c, Result clocks) {
        return view.end(c) - clocks.offset(view.rank);
    }
}
