package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.report.PeerBoundTail;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the tails that a late peer, not the bucket layout, made long: per rank and step, the
 * tail's last collective (the head of its attribution chain) as matched across ranks; when its
 * {@code wait_r} is at least a quarter of its duration on that rank, the advice for the rank must
 * name the late peer beside (or, when the wait is most of it, instead of) a smaller bucket
 * (metrics.md §8): a bucket size cannot remove the waiting part. A quarter: a rank 0.8 ms late
 * before a 1 ms transfer costs every other rank 44 % of its last collective, worth naming; a few
 * per cent of jitter is not. Collectives not timed on every member, or without waits (rough
 * clocks, implausible arrivals, positions after a divergence), tell nothing and are skipped.
 */
final class PeerBoundTails {
    private PeerBoundTails() {
    }

    static List<PeerBoundTail> find(List<SkewAnalysis.Timing> timings, Map<Integer, RankView> views,
                                    List<RankInput> ranks) {
        Map<Integer, Map<Integer, SkewAnalysis.Timing>> byRankAndCollective = new HashMap<>();
        for (SkewAnalysis.Timing t : timings) {
            if (!t.hasWaits()) {
                continue; // no waits made there: nobody is called late from it
            }
            for (Map.Entry<Integer, Collective> e : t.slot().byRank().entrySet()) {
                byRankAndCollective.computeIfAbsent(e.getKey(), k -> new HashMap<>()).put(e.getValue().id(), t);
            }
        }
        List<PeerBoundTail> out = new ArrayList<>();
        for (RankInput in : ranks) {
            int rank = in.rank();
            Map<Integer, SkewAnalysis.Timing> timed = byRankAndCollective.getOrDefault(rank, Map.of());
            RankView view = views.get(rank);
            if (view == null) {
                continue;
            }
            for (StepReport s : in.report().steps()) {
                if (s.tailNs() == null || s.tailNs() <= 0 || s.attribution().chain().isEmpty()) {
                    continue;
                }
                SkewAnalysis.Timing t = timed.get(s.attribution().chain().get(0).collective());
                if (t == null) {
                    continue;
                }
                Collective last = t.slot().byRank().get(rank);
                long duration = view.end(last) - view.start(last);
                long wait = t.waits().get(rank);
                if (wait > 0 && 4 * wait >= duration) {
                    out.add(new PeerBoundTail(rank, s.name(), Bandwidth.type(t.slot()).name(), duration,
                            wait, t.lastRank() < 0 ? null : t.lastRank()));
                }
            }
        }
        return out;
    }
}
