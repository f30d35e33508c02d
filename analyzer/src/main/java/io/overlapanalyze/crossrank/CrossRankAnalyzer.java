package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.report.ClockAlignment;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.HumanTime;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.MatchedCollective;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.SkewSummary;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cross-rank analysis of metrics.md §8 (and §9 bandwidth) over ranks already read and
 * analysed one by one: job assembly, matching and mismatches per process group, clock alignment,
 * skew and stragglers with the exposed-communication split, bandwidth, and the worst tail per step.
 * Never throws on a valid model: inputs it cannot use are named in the report.
 */
public final class CrossRankAnalyzer {
    /**
     * Residual end spread above which the alignment is called rough (NCCL ends agree within a few µs);
     * public so that what draws the ranks side by side ({@code annotate}) judges the offsets alike.
     */
    public static final long RESIDUAL_WARN_NS = 100_000;
    private CrossRankAnalyzer() {
    }

    /**
     * The cross-rank report and the evidence for each rank's transfer/waiting split.
     *
     * @param report the cross-rank section of the job's report
     * @param waits  per rank and step, what {@link CrossRankSplits#apply} puts into the rank reports
     */
    public record Result(CrossRankReport report, StepWaits waits) {
    }

    /**
     * @param inputs        every rank read (in the order the user gave the files)
     * @param loadProblems  inputs that could not be read at all
     */
    public static CrossRankReport analyze(List<RankInput> inputs, List<InputProblem> loadProblems) {
        return analyzeWithWaits(inputs, loadProblems).report();
    }

    /** As {@link #analyze}, with the split evidence beside the report. */
    public static Result analyzeWithWaits(List<RankInput> inputs, List<InputProblem> loadProblems) {
        JobAssembler.Assembly job = JobAssembler.assemble(inputs);
        List<InputProblem> problems = new ArrayList<>(loadProblems);
        problems.addAll(job.problems());
        List<String> notes = new ArrayList<>(job.notes());
        List<Integer> ranks = job.ranks().stream().map(RankInput::rank).toList();
        List<RankReport> reports = job.ranks().stream().map(RankInput::report).toList();
        if (ranks.size() < 2) {
            notes.add("fewer than two consistent ranks: nothing to compare across ranks");
            return new Result(new CrossRankReport(ranks, job.worldSize(), job.missingListed(), problems,
                    new ClockAlignment(false, 0, null, "clocks not aligned: fewer than two ranks"), Map.of(),
                    List.of(), List.of(), new SkewSummary(0, null, null, null, null, null, null, null, null, null, null),
                    List.of(), List.of(), List.of(), WorstTails.of(reports), notes, List.of(), job.missing()), StepWaits.none());
        }

        Map<Integer, RankView> views = new TreeMap<>();
        Map<Integer, Map<GroupKey, List<Collective>>> orders = new HashMap<>();
        Map<String, GroupKey> groups = new LinkedHashMap<>();
        for (RankInput in : job.ranks()) {
            RankView v = new RankView(in.trace());
            views.put(in.rank(), v);
            Map<GroupKey, List<Collective>> order = IssueOrder.of(v);
            orders.put(in.rank(), order);
            for (GroupKey k : order.keySet()) {
                groups.putIfAbsent(k.key(), k);
            }
        }

        List<GroupSummary> summaries = new ArrayList<>();
        List<Mismatch> mismatches = new ArrayList<>();
        List<Slot> timing = new ArrayList<>();
        Map<Slot, Integer> groupSizes = new IdentityHashMap<>();
        if (groups.containsKey(GroupKey.IMPLICIT.key())) {
            notes.add("no process-group metadata on some collectives: they form one implicit group of every rank, "
                    + "matched by issue order; differences there are warnings (inferred), not errors");
        }
        if (groups.containsKey(GroupKey.EXPERT_PARALLEL.key())) {
            notes.add("expert-parallel dispatch / combine kernels carry no process-group metadata: they form one "
                    + "inferred expert-parallel group of every rank, matched by issue order; differences there are "
                    + "warnings (inferred), not errors");
        }
        for (GroupKey key : groups.values()) {
            List<Integer> members = members(key, ranks, orders);
            if (members.size() < 2) {
                notes.add("group " + key.display() + ": only rank " + members + " among the inputs; not compared");
                continue;
            }
            Map<Integer, List<Collective>> lists = new HashMap<>();
            for (int r : members) {
                lists.put(r, orders.get(r).getOrDefault(key, List.of()));
            }
            int groupSize = !key.ranks().isEmpty() ? key.ranks().size()
                    : (job.worldSize() != null && key.inferred() ? job.worldSize() : members.size());
            GroupMatcher.GroupMatch m = GroupMatcher.match(key, members, lists, views, groupSize, notes);
            summaries.add(m.summary());
            mismatches.addAll(m.mismatches());
            for (Slot s : m.timing()) {
                timing.add(s);
                groupSizes.put(s, groupSize);
            }
        }

        ClockAligner.Result clocks = ClockAligner.align(timing, ranks, views);
        boolean rough = clocks.alignment().aligned() && clocks.alignment().maxResidualNs() > RESIDUAL_WARN_NS;
        if (!clocks.alignment().aligned()) {
            notes.add(clocks.alignment().note());
        } else if (rough) {
            // Matched collectives should end within a few µs of each other once aligned; when they do
            // not (point-to-point kernels inside all_to_all, sampled traces), offsets and skew are rough,
            // and so is every arrival: metrics.md §8 makes no waits or "rank X was late" claims then.
            notes.add("after alignment, matched collectives still end up to "
                    + HumanTime.us(clocks.alignment().maxResidualNs()) + " µs apart: they do not end together, "
                    + "so clock offsets and arrival skew are rough; the clocks do not allow per-collective waits, "
                    + "stragglers or late-rank claims, so none are made");
        }
        List<SkewAnalysis.Timing> timings = SkewAnalysis.time(timing, views, clocks, !rough);
        int implausible = timings.stream().mapToInt(SkewAnalysis.Timing::implausible).sum();
        if (implausible > 0) {
            long collectivesHit = timings.stream().filter(t -> t.implausible() > 0).count();
            notes.add(implausible + " raw wait" + (implausible == 1 ? "" : "s") + " in " + collectivesHit
                    + " collective" + (collectivesHit == 1 ? "" : "s") + " exceeded the rank's own collective: "
                    + "a wait cannot outlast the collective it sits in, so the pairing or the clocks are wrong "
                    + "there; those collectives carry no waits");
        }
        Map<Slot, SkewAnalysis.Timing> timingBySlot = new IdentityHashMap<>();
        for (SkewAnalysis.Timing t : timings) {
            timingBySlot.put(t.slot(), t);
        }
        List<MatchedCollective> collectives = new ArrayList<>();
        for (Slot s : timing) {
            SkewAnalysis.Timing t = timingBySlot.get(s);
            Map.Entry<Integer, Collective> first = s.byRank().entrySet().iterator().next();
            CollectiveType type = Bandwidth.type(s);
            Long bytes = Bandwidth.commonBytes(s);
            int n = groupSizes.get(s);
            Long transfer = t == null ? null : t.transferNs();
            Double alg = Bandwidth.algBw(bytes, transfer);
            Double factor = Bandwidth.busFactor(type, n);
            collectives.add(new MatchedCollective(s.group().display(), s.index(), type.name(),
                    views.get(first.getKey()).step(first.getValue()), bytes, n,
                    t == null ? null : t.arrivalSkewNs(), t == null ? null : t.endSkewNs(), transfer,
                    t == null || t.lastRank() < 0 ? null : t.lastRank(), alg,
                    alg == null || factor == null ? null : alg * factor, t == null ? null : t.waits()));
        }
        // §12 rule 2 needs arrivals on one clock: aligned and not rough.
        StepWaits waits = clocks.alignment().aligned() && !rough
                ? CrossRankSplits.compute(timings, views, job.ranks(), groupSizes) : StepWaits.none();
        // The worst tail per step names each tail's cause as the rank reports will (WAIT included).
        List<RankReport> applied = reports.stream().map(r -> CrossRankSplits.apply(r, waits.rank(r.rank()))).toList();
        CrossRankReport report = new CrossRankReport(ranks, job.worldSize(), job.missingListed(), problems,
                clocks.alignment(), clocks.offsets(), summaries, mismatches,
                SkewAnalysis.summarize(timings, views, !rough),
                rough ? List.of() : StragglerTable.build(timings, views, ranks), Bandwidth.byType(timings, groupSizes),
                collectives, WorstTails.of(applied), notes, rough ? List.of() : PeerBoundTails.find(timings, views,
                job.ranks()), job.missing());
        return new Result(report, waits);
    }

    /**
     * Declared members among the analysed ranks; every analysed rank for the implicit group; for a
     * named group without a member list, the analysed ranks that issued anything in it.
     */
    private static List<Integer> members(GroupKey key, List<Integer> ranks,
                                         Map<Integer, Map<GroupKey, List<Collective>>> orders) {
        List<Integer> out = new ArrayList<>();
        for (int r : ranks) {
            boolean member = !key.ranks().isEmpty() ? key.ranks().contains(r)
                    : key.inferred() || orders.get(r).containsKey(key);
            if (member) {
                out.add(r);
            }
        }
        return out;
    }
}
