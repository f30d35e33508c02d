package io.overlapanalyze.findings;

import io.overlapanalyze.report.ContentionReport;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.FindingKind;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankRanges;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * One rank's findings (metrics.md §13), ranked by the time they could save per step. Each saving is
 * the median over the rank's steps of what {@link StepClaims} hands that cause, so no nanosecond of a
 * step is claimed by two findings; a cause below {@link #MIN_SHARE} of the step is left out as noise.
 */
public final class RankFindings {
    /** A finding must be able to save at least this share of the median step. */
    static final double MIN_SHARE = 0.01;

    private RankFindings() {
    }

    /** The rank's findings; {@code context} gives the rest of the job (its cross-rank section may be null). */
    public static List<Finding> of(RankReport rank, VerdictContext context) {
        CrossRankReport cross = context.crossRank();
        List<Finding> out = new ArrayList<>(mismatches(rank.rank(), cross));
        StepFigures f = StepFigures.of(rank.steps());
        if (f.isEmpty()) {
            return out;
        }
        boolean commKnown = rank.notAvailable() == null || rank.notAvailable().communication() == null;
        List<StepClaims> claims = f.steps().stream().map(s -> StepClaims.of(s, commKnown)).toList();
        long period = f.median(StepReport::stepPeriodNs);
        String over = f.partialOnly() ? " (median over partial steps: the capture has no complete one)" : "";
        LateRank late = LateRank.of(cross);
        List<Finding> ranked = new ArrayList<>();
        List<Integer> here = List.of(rank.rank());

        long host = median(claims, StepClaims::hostNs);
        if (keep(host, period)) {
            long idle = f.median(StepReport::idleNs);
            ranked.add(finding(FindingKind.HOST_BOUND, host, period, here,
                    "the device was idle " + Numbers.ms(idle) + " of a " + Numbers.ms(period) + " step ("
                            + Numbers.pct(idle, period) + "), " + Numbers.ms(host)
                            + " of it waiting for the host to issue work" + hostActivity(f, host) + over,
                    "speed up the host, not the device: load data in worker processes with pinned memory, "
                            + "launch fewer and larger kernels (torch.compile, CUDA graphs), avoid host syncs "
                            + "(.item(), .cpu()) in the step; bucket sizes and overlap cannot change this"));
        }
        long launched = median(claims, StepClaims::launchedNs);
        if (keep(launched, period)) {
            ranked.add(finding(FindingKind.DEPENDENCY_IDLE, launched, period, here,
                    Numbers.ms(launched) + " per step the device was idle although the next work had been "
                            + "issued (a stream or event dependency, or launch latency)" + over,
                    "find what the work waited for at those gaps (stream waits, event syncs, a synchronising "
                            + "copy); many tiny kernels: fuse them or capture them in a CUDA graph"));
        }
        long copy = median(claims, StepClaims::copyNs);
        if (keep(copy, period)) {
            ranked.add(finding(FindingKind.EXPOSED_COPY, copy, period, here,
                    "copies ran with nothing else on the device for " + Numbers.ms(copy) + " per step" + over,
                    "overlap copies with compute (pinned host memory, non_blocking=True, a side stream) or "
                            + "avoid them"));
        }
        long bubble = median(claims, StepClaims::bubbleNs);
        if (keep(bubble, period)) {
            ranked.add(finding(FindingKind.PIPELINE_BUBBLE, bubble, period, here,
                    "pipeline send/recv ran exposed for " + Numbers.ms(bubble) + " per step" + over,
                    "shrink pipeline bubbles: more micro-batches, an interleaved or zero-bubble schedule, "
                            + "balanced stages"));
        }
        long prefetch = median(claims, StepClaims::prefetchNs);
        if (keep(prefetch, period)) {
            ranked.add(finding(FindingKind.LATE_PREFETCH, prefetch, period, here,
                    "compute waited " + Numbers.ms(prefetch) + " per step for parameter all-gathers" + over,
                    "prefetch earlier (FSDP forward_prefetch / backward_prefetch, more all-gathers in "
                            + "flight) or use larger wrapping units"));
        }
        tail(f, claims, period, here, over, ranked);
        long launchLate = median(claims, StepClaims::launchLateNs);
        if (keep(launchLate, period)) {
            ranked.add(finding(FindingKind.LATE_LAUNCH, launchLate, period, here,
                    "the first gradient collective was issued " + Numbers.ms(f.median(s -> s.launchLateNs() == null
                            ? 0 : s.launchLateNs())) + " after its data was ready; up to " + Numbers.ms(launchLate)
                            + " per step of exposed gradient communication follows from it" + over,
                    "issue collectives as soon as their bucket is ready: no host sync or heavy work in "
                            + "communication hooks, and check DDP's find_unused_parameters / static_graph"));
        }
        communication(rank, f, claims, period, here, over, late, context, ranked);
        slowdown(rank, period, here, ranked);
        if (late != null && late.rank() == rank.rank()) {
            long saving = othersExposedWait(late, context);
            if (keep(saving, period)) {
                ranked.add(straggler(late, context, saving, period));
            }
        }
        ranked.sort(Comparator.comparingLong((Finding x) -> x.savingNs() == null ? Long.MAX_VALUE : x.savingNs())
                .reversed().thenComparing(x -> FindingKind.valueOf(x.kind()).ordinal()));
        out.addAll(ranked);
        return out;
    }

    private static void tail(StepFigures f, List<StepClaims> claims, long period, List<Integer> here, String over,
                             List<Finding> ranked) {
        long tail = median(claims, StepClaims::tailNs);
        if (!keep(tail, period)) {
            return;
        }
        Map<TailKind, Integer> kinds = new TreeMap<>();
        for (StepReport s : f.steps()) {
            TailKind k = s.attribution().kind();
            if (s.tailNs() != null && s.tailNs() > 0
                    && (k == TailKind.LAST_BUCKET || k == TailKind.COMM_BOUND || k == TailKind.LAUNCH_BOUND)) {
                kinds.merge(k, 1, Integer::sum);
            }
        }
        TailKind kind = kinds.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(TailKind.LAST_BUCKET);
        String steps = kinds.get(kind) + " of " + f.steps().size() + (f.steps().size() == 1 ? " step" : " steps");
        boolean splitKnown = f.steps().stream().allMatch(s -> s.commSplit().known());
        long medianTail = f.median(s -> s.tailNs() == null ? 0 : s.tailNs());
        String evidence = "the optimizer waited " + Numbers.ms(medianTail) + " per step for communication after the "
                + "last gradient (tail " + kind + " in " + steps + ")"
                + (tail < medianTail ? "; " + Numbers.ms(tail) + " of it counts here, the rest under WAITING, "
                + "PIPELINE_BUBBLE or LATE_PREFETCH" : "") + over;
        String action = switch (kind) {
            case LAST_BUCKET -> "the tail is the last bucket's own transfer: make the last bucket smaller "
                    + "(DDP bucket_cap_mb, or a smaller first-registered bucket) or overlap it with the optimizer";
            case COMM_BOUND -> "more communication was issued than the remaining compute could hide: move "
                    + "fewer bytes (bf16 or compressed gradients) or get more bandwidth; overlap cannot hide more"
                    + (splitKnown ? "" : " (whether the collectives waited or transferred is not known: check "
                    + "across ranks before buying bandwidth)");
            default -> "the host issued a collective after its data was ready: remove what the host does "
                    + "before that launch (a sync, Python work in a hook)";
        };
        ranked.add(finding(FindingKind.TAIL, tail, period, here, evidence, action));
    }

    private static void communication(RankReport rank, StepFigures f, List<StepClaims> claims, long period,
                                      List<Integer> here, String over, LateRank late, VerdictContext context,
                                      List<Finding> ranked) {
        long waiting = median(claims, StepClaims::waitingNs);
        long transfer = median(claims, StepClaims::transferNs);
        long unsplit = median(claims, StepClaims::unsplitNs);
        long exposed = f.median(StepReport::exposedCommNs);
        String source = f.steps().stream().map(s -> s.commSplit().source()).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
        if (keep(waiting, period)) {
            Integer whom = LateRank.waitedForBy(rank.rank(), late);
            Long forWhomNs = context.exposedWaitNs().get(rank.rank());
            boolean outside = outsideInput(rank, context);
            String readOf = context.ranksRead() + " of " + worldSize(rank, context) + " ranks read";
            String forWhom;
            String action;
            if (whom != null && outside && (forWhomNs == null || 2 * forWhomNs < waiting)) {
                // The late rank among those read explains only part of it (or an unknown part: waits
                // across a group with ranks not read are lower bounds); the rest waited for ranks the
                // capture does not hold.
                forWhom = (forWhomNs == null ? ", partly for rank " + whom : ", " + Numbers.ms(forWhomNs)
                        + " of it for rank " + whom) + " (it arrived last at " + late.timesLast() + " of "
                        + late.timed() + " timed collectives), the rest possibly for ranks that are not in the "
                        + "input (" + readOf + ")";
                action = "the collectives waited for peers, not for bytes: capture every rank to see which one is "
                        + "late; bucket sizes and bandwidth will not help";
            } else if (whom != null) {
                forWhom = ", mostly for rank " + whom + " (it arrived last at " + late.timesLast() + " of "
                        + late.timed() + " timed collectives)";
                action = "rank " + whom + " is late, not the network: see its findings; bucket sizes and bandwidth "
                        + "cannot fix a late peer";
            } else if (outside) {
                forWhom = ", possibly for ranks that are not in the input (" + readOf + ")";
                action = "the collectives waited for peers, not for bytes: capture every rank to see which one is "
                        + "late; bucket sizes and bandwidth will not help";
            } else {
                forWhom = "";
                action = "the collectives waited for peers or the other side of a transfer, not for bytes: find "
                        + "the late side; bucket sizes and bandwidth will not help";
            }
            ranked.add(finding(FindingKind.WAITING, waiting, period, here,
                    "exposed communication " + Numbers.ms(exposed) + " per step, " + Numbers.ms(waiting)
                            + " of it waiting (" + source + ")" + forWhom + over, action));
        }
        if (keep(transfer, period)) {
            ranked.add(finding(FindingKind.EXPOSED_TRANSFER, transfer, period, here,
                    "exposed communication " + Numbers.ms(exposed) + " per step, " + Numbers.ms(transfer)
                            + " of it transferring with no compute beside it (" + source + ")" + over,
                    "hide more communication under compute (smaller buckets start earlier; overlap the next "
                            + "step's forward) or move fewer bytes"));
        }
        if (keep(unsplit, period)) {
            ranked.add(finding(FindingKind.EXPOSED_COMM, unsplit, period, here,
                    "exposed communication " + Numbers.ms(exposed) + " per step, " + Numbers.ms(unsplit)
                            + " of it not split into waiting and transfer (not available: no profiler split, "
                            + "no timing across ranks, fewer than 3 instances of a collective)" + over,
                    "capture every rank (or the profiler's communication analysis) to tell waiting from "
                            + "transfer before changing buckets or bandwidth"));
        }
    }

    private static void slowdown(RankReport rank, long period, List<Integer> here, List<Finding> ranked) {
        long extra = 0;
        ContentionReport worst = null;
        for (ContentionReport c : rank.contention()) {
            extra += c.extraPerStepNs();
            if (c.extraPerStepNs() > 0 && (worst == null || c.extraPerStepNs() > worst.extraPerStepNs())) {
                worst = c;
            }
        }
        if (worst == null || !keep(extra, period)) {
            return;
        }
        ranked.add(finding(FindingKind.COMPUTE_SLOWDOWN, extra, period, List.of(rank.rank()),
                "compute kernels ran slower beside communication: net " + Numbers.ms(extra) + " per step (most: "
                        + worst.kernel() + ", " + Numbers.ms(worst.extraPerStepNs()) + " per step)",
                "let communication take fewer SMs (NCCL_MAX_NCHANNELS / NCCL_MIN_CTAS) or overlap it with "
                        + "less sensitive kernels"));
    }

    /**
     * What the others' steps would lose without the late rank: the median over the other ranks of
     * their exposed waiting across ranks, when the cross-rank analysis measured it; else their
     * median wait at the collectives it came last to (an upper bound: some of it hid under compute).
     */
    private static long othersExposedWait(LateRank late, VerdictContext context) {
        long[] exposed = context.exposedWaitNs().entrySet().stream().filter(e -> e.getKey() != late.rank())
                .mapToLong(Map.Entry::getValue).toArray();
        return exposed.length == 0 ? late.othersWaitNs() : StepFigures.median(exposed);
    }

    private static Finding straggler(LateRank late, VerdictContext context, long saving, long period) {
        RankMedians mine = context.ranks().get(late.rank());
        List<RankMedians> others = context.ranks().entrySet().stream().filter(e -> e.getKey() != late.rank())
                .map(Map.Entry::getValue).toList();
        String why = Why.late(late.rank(), mine, others);
        boolean exposed = saving != late.othersWaitNs();
        return finding(FindingKind.STRAGGLER, saving, period, List.of(late.rank()),
                "rank " + late.rank() + " arrived last at " + late.timesLast() + " of " + late.timed()
                        + " timed collectives; the other ranks waited a median " + Numbers.ms(late.othersWaitNs())
                        + " per step for it" + (exposed ? ", " + Numbers.ms(saving) + " of it with nothing else "
                        + "to run" : "") + (why.isEmpty() ? "" : "; " + why),
                "make rank " + late.rank() + " as fast as the others: " + Why.action(late.rank(), mine, others));
    }

    /** Every cross-rank ERROR that names this rank (the job would hang there). */
    static List<Finding> mismatches(int rank, CrossRankReport cross) {
        List<Finding> out = new ArrayList<>();
        if (cross == null) {
            return out;
        }
        for (Mismatch m : cross.mismatches()) {
            if (m.severity() != Mismatch.Severity.ERROR) {
                continue;
            }
            boolean named = m.culprits().contains(rank) || m.ranks().stream().anyMatch(v -> v.rank() == rank);
            if (named) {
                out.add(mismatch(m));
            }
        }
        return out;
    }

    static Finding mismatch(Mismatch m) {
        return new Finding(FindingKind.COLLECTIVE_MISMATCH.name(), null, null, m.culprits(),
                m.kind() + " in group " + m.group() + " at collective " + m.index() + ": " + m.message(),
                "every rank must issue the same collectives in the same order in each group: fix the code path "
                        + "that differs on rank(s) " + RankRanges.text(m.culprits()) + " (a conditional collective, a different "
                        + "number of micro-batches, an unused parameter)");
    }

    private static String hostActivity(StepFigures f, long host) {
        // The step whose host-bound idle is nearest the median shows what the host was doing.
        StepReport step = f.steps().stream().filter(s -> s.idle() != null)
                .min(Comparator.comparingLong(s -> Math.abs(s.idle().hostNs() - host))).orElse(null);
        if (step == null || step.idle().hostActivity().isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (HostActivity a : step.idle().hostActivity()) {
            if (parts.size() == 3) {
                break;
            }
            parts.add(a.name() + " " + Numbers.ms(a.ns()));
        }
        return "; the host was in " + String.join(", ", parts) + " (" + step.name() + ")";
    }

    private static boolean outsideInput(RankReport rank, VerdictContext context) {
        Integer world = worldSize(rank, context);
        return world != null && world > context.ranksRead();
    }

    /** The most ranks the input says took part: the job's world size, the rank's, or its largest group. */
    private static Integer worldSize(RankReport rank, VerdictContext context) {
        Integer most = null;
        for (Integer n : java.util.Arrays.asList(context.crossRank() == null ? null : context.crossRank().worldSize(),
                rank.worldSize(), rank.largestGroupSize())) {
            if (n != null && (most == null || n > most)) {
                most = n;
            }
        }
        return most;
    }

    static boolean keep(long savingNs, long periodNs) {
        return savingNs > 0 && periodNs > 0 && savingNs >= MIN_SHARE * periodNs;
    }

    static Finding finding(FindingKind kind, long savingNs, long periodNs, List<Integer> ranks, String evidence,
                           String action) {
        long saving = Math.min(savingNs, periodNs);
        return new Finding(kind.name(), saving, periodNs > 0 ? (double) saving / periodNs : null, ranks, evidence,
                action);
    }

    private static long median(List<StepClaims> claims, ToLongFunction<StepClaims> part) {
        long[] v = new long[claims.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = part.applyAsLong(claims.get(i));
        }
        return StepFigures.median(v);
    }
}
