package io.overlapanalyze.crossrank;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cross-rank source of the transfer/waiting split (metrics.md §12 rule 2) and of the {@code WAIT}
 * tail cause (§6): {@link #compute} gathers the evidence per rank and step ({@link StepWaits}) from
 * the matched collectives' waits; {@link #apply} puts it into one rank's report. {@code apply} reads
 * nothing but its two arguments, so that every caller that holds a rank report (the pipeline, the
 * Spark launcher copying reports from part files) applies the same rule.
 */
public final class CrossRankSplits {
    private CrossRankSplits() {
    }

    /**
     * One rank's report with the cross-rank evidence applied, every other component unchanged:
     * <ul>
     *   <li>a step whose exposed communication the evidence covers (every part of it ran in a
     *       collective matched, timed and still paired across ranks, and the evidence saw the same
     *       {@code exposedCommNs} in the step's window) gets {@code commSplit} = (exposed waiting,
     *       the rest, {@code crossRank}), unless it already has the profiler's own split (the
     *       stronger evidence);</li>
     *   <li>a step with a tail whose chain's collectives all have a cross-rank wait, and mostly
     *       waited (Σ wait over Σ duration of the chain's links above one half), gets the tail cause
     *       {@link TailKind#WAIT}: a bucket size or more bandwidth cannot shorten such a tail.</li>
     * </ul>
     *
     * @param waits the rank's evidence ({@link StepWaits#rank}); {@code null}: the report unchanged
     */
    public static RankReport apply(RankReport report, StepWaits.RankWaits waits) {
        if (waits == null) {
            return report;
        }
        Map<String, StepWaits.StepWait> byStep = new HashMap<>();
        for (StepWaits.StepWait w : waits.steps()) {
            byStep.put(w.step() + "@" + w.deviceStartNs(), w);
        }
        List<StepReport> steps = new ArrayList<>(report.steps().size());
        boolean changed = false;
        for (StepReport s : report.steps()) {
            StepReport out = s;
            StepWaits.StepWait w = s.deviceStartNs() == null ? null : byStep.get(s.name() + "@" + s.deviceStartNs());
            if (w != null && s.exposedCommNs() > 0 && w.exposedCommNs() == s.exposedCommNs()
                    && !CommSplit.PROFILER.equals(s.commSplit().source())) {
                long wait = Math.min(w.exposedWaitNs(), s.exposedCommNs());
                out = out.withCommSplit(new CommSplit(wait, s.exposedCommNs() - wait, CommSplit.CROSS_RANK));
            }
            if (chainMostlyWaited(s, waits)) {
                out = out.withAttribution(new Attribution(TailKind.WAIT, s.attribution().chain()));
            }
            changed |= out != s;
            steps.add(out);
        }
        return changed ? report.withSteps(steps) : report;
    }

    private static boolean chainMostlyWaited(StepReport s, StepWaits.RankWaits waits) {
        List<ChainLink> chain = s.attribution().chain();
        if (s.tailNs() == null || s.tailNs() <= 0 || chain.isEmpty() || s.attribution().kind() == TailKind.WAIT) {
            return false;
        }
        long waited = 0;
        long duration = 0;
        for (ChainLink link : chain) {
            Long w = waits.waitOf(link.collective());
            if (w == null) {
                return false; // a link without a cross-rank wait: the chain's waiting is not known
            }
            long d = link.endNs() - link.startNs();
            waited += Math.min(w, d);
            duration += d;
        }
        return 2 * waited > duration;
    }

    /**
     * The evidence per rank: for each rank, the waits of its matched, timed, still-paired
     * collectives, and for each step with a device window whose exposed communication lies entirely
     * in such collectives, the exposed waiting inside that window. Over the whole trace on the rank
     * (so that a collective's wait counts wherever it ran): E = C − K over every interval launched
     * in the capture, W = each collective's leading {@code wait_r} stretch, P = the spans of those
     * collectives; per step window: exposed = |E|, waiting = |W ∩ E|, covered when |E ∩ P| = |E|.
     * Each a binary search and the runs inside the window: no step × interval loop.
     *
     * <p>A collective whose group has more ranks than the input holds (a capture of 2 of 8 ranks)
     * gives no evidence: its last arrival may be a rank that was not read, so its waits are only
     * lower bounds and the rest would be called transfer wrongly.
     *
     * @param timings    timings made with waits allowed (aligned, not rough clocks)
     * @param groupSizes per timed slot, the size of its group
     */
    static StepWaits compute(List<SkewAnalysis.Timing> timings, Map<Integer, RankView> views,
                             List<RankInput> ranks, Map<Slot, Integer> groupSizes) {
        Map<Integer, TreeMap<Integer, Long>> waitById = new HashMap<>();
        Map<Integer, IntervalSet.Builder> waitParts = new HashMap<>();
        Map<Integer, IntervalSet.Builder> paired = new HashMap<>();
        for (SkewAnalysis.Timing t : timings) {
            Integer size = groupSizes.get(t.slot());
            if (!t.hasWaits() || size == null || size > t.slot().byRank().size()) {
                continue;
            }
            for (Map.Entry<Integer, Long> w : t.waits().entrySet()) {
                int rank = w.getKey();
                RankView v = views.get(rank);
                Collective c = t.slot().byRank().get(rank);
                long start = v.start(c);
                long end = v.end(c);
                long wait = Math.min(w.getValue(), end - start);
                waitById.computeIfAbsent(rank, k -> new TreeMap<>()).put(c.id(), wait);
                paired.computeIfAbsent(rank, k -> IntervalSet.builder()).add(start, end);
                if (wait > 0) {
                    waitParts.computeIfAbsent(rank, k -> IntervalSet.builder()).add(start, start + wait);
                }
            }
        }
        Map<Integer, StepWaits.RankWaits> out = new TreeMap<>();
        for (RankInput in : ranks) {
            int rank = in.rank();
            TreeMap<Integer, Long> byId = waitById.get(rank);
            RankView view = views.get(rank);
            if (byId == null || view == null) {
                continue;
            }
            IntervalSet exposed = exposed(view.trace.device());
            IntervalSet exposedWait = waitParts.getOrDefault(rank, IntervalSet.builder()).build().intersect(exposed);
            IntervalSet exposedPaired = paired.get(rank).build().intersect(exposed);
            List<StepWaits.StepWait> steps = new ArrayList<>();
            for (StepReport s : in.report().steps()) {
                if (s.deviceStartNs() == null || s.deviceEndNs() == null) {
                    continue;
                }
                long from = s.deviceStartNs();
                long to = s.deviceEndNs();
                long e = exposed.lengthWithin(from, to);
                if (e > 0 && exposedPaired.lengthWithin(from, to) == e) {
                    steps.add(new StepWaits.StepWait(s.name(), from, e, exposedWait.lengthWithin(from, to)));
                }
            }
            int[] ids = new int[byId.size()];
            long[] w = new long[byId.size()];
            int i = 0;
            for (Map.Entry<Integer, Long> e : byId.entrySet()) {
                ids[i] = e.getKey();
                w[i++] = e.getValue();
            }
            out.put(rank, new StepWaits.RankWaits(steps, ids, w));
        }
        return new StepWaits(out);
    }

    /** |C − K| as the straggler table takes it: every COMM and COMPUTE interval launched in the capture. */
    static IntervalSet exposed(DeviceIntervals d) {
        IntervalSet.Builder comm = IntervalSet.builder();
        IntervalSet.Builder compute = IntervalSet.builder();
        for (int i = 0; i < d.size(); i++) {
            if (d.preCapture(i)) {
                continue;
            }
            if (d.kind(i) == DeviceKind.COMM) {
                comm.add(d.start(i), d.end(i));
            } else if (d.kind(i) == DeviceKind.COMPUTE) {
                compute.add(d.start(i), d.end(i));
            }
        }
        return comm.build().subtract(compute.build());
    }
}
