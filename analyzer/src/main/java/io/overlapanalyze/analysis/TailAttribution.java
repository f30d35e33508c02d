package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.StepContext.CollectiveSpan;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.TailKind;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Critical-path tail attribution (metrics.md §6): walk back from {@code gL}.
 *
 * <p>For a collective {@code g} starting at {@code s} on the device, the candidates are
 * <ul>
 *   <li>DATA: its data-ready time ({@link DataReady}),</li>
 *   <li>LAUNCH: its host enqueue time (the host launch of its first kernel when the enqueue is
 *       unknown),</li>
 *   <li>QUEUE: the end of the COMM interval immediately before {@code g} on {@code g}'s lane: the
 *       one with the latest start strictly before {@code s} that is not {@code g}'s own. Only
 *       the same step's intervals are searched: in synchronous training a step's reductions
 *       finish before its optimizer, so the previous step's communication is long done.</li>
 * </ul>
 * A candidate explains {@code s} when {@code |candidate − s| ≤ ε} with
 * {@code ε = options.epsilonFor(g's duration)}; {@code g} is bound by the latest such candidate.
 * <b>Ties</b> (two candidates at exactly the same time) are broken DATA, then QUEUE, then LAUNCH:
 * a data dependency cannot be removed by any scheduling, so when it binds as tightly as the
 * queue the collective is really waiting for its data (with 2 ms buckets and 2 ms transfers,
 * {@code g3} is ready and the lane frees at the same instant: shrinking the earlier transfers
 * would not start it sooner, a smaller last bucket would end it sooner, so LAST_BUCKET is the
 * useful verdict); a queue is a device-side fact, while a host enqueue coinciding with it is
 * not what held the collective back.
 *
 * <p>When bound by QUEUE the walk continues with the collective that owned that previous
 * interval (it stops there when the interval has no collective). Classification:
 * <ul>
 *   <li>tail = 0 (or undefined): NONE with an empty chain;</li>
 *   <li>the chain ends on LAUNCH: LAUNCH_BOUND, even when it passed through QUEUE links first:
 *       the head of the queue was issued late, and issuing it on time would shorten the pile-up,
 *       so "only fewer bytes or more bandwidth can help" (COMM_BOUND) would mislead;</li>
 *   <li>otherwise, when most of the chain's communication time was waiting by the transfer /
 *       waiting split of its collectives (metrics.md §12: profiler or estimated; a collective
 *       without a split counts as not waiting, {@link CommSplitAnalysis#mostlyWaiting}): WAIT.
 *       Checked before COMM_BOUND (§6): "only fewer bytes or more bandwidth help" is false when
 *       the transfers themselves were short, and before LAST_BUCKET and UNEXPLAINED for the same
 *       reason (a smaller bucket does not shorten a wait). LAUNCH_BOUND keeps precedence: a head
 *       issued late is a cause this rank can remove;</li>
 *   <li>otherwise at least one QUEUE link: COMM_BOUND (also when the head is UNEXPLAINED);</li>
 *   <li>{@code gL} alone bound by DATA: LAST_BUCKET;</li>
 *   <li>{@code gL} alone UNEXPLAINED: UNEXPLAINED.</li>
 * </ul>
 */
public final class TailAttribution {

    /** The attribution and whether a data-ready time on the chain was approximate. */
    public record Result(Attribution attribution, boolean approximate) {
    }

    private TailAttribution() {
    }

    /** {@link #attribute(StepContext, CollectiveSpan, Long, DataReady, AnalysisOptions, CommSplitAnalysis.Waits)} without any split: never WAIT. */
    public static Result attribute(StepContext step, CollectiveSpan gL, Long tailNs, DataReady dataReady,
                                   AnalysisOptions options) {
        return attribute(step, gL, tailNs, dataReady, options, CommSplitAnalysis.Index.none());
    }

    /** The attribution, with {@code waits} deciding WAIT (see the class comment). */
    public static Result attribute(StepContext step, CollectiveSpan gL, Long tailNs, DataReady dataReady,
                                   AnalysisOptions options, CommSplitAnalysis.Waits waits) {
        if (gL == null || tailNs == null || tailNs == 0L) {
            return new Result(Attribution.none(), false);
        }
        DeviceIntervals dev = step.device();
        List<ChainLink> chain = new ArrayList<>();
        Set<Integer> visited = new HashSet<>();
        boolean approximate = false;
        CollectiveSpan g = gL;
        while (g != null && visited.add(g.id())) {
            long s = g.startNs();
            DataReady.Ready ready = dataReady.readyFor(g);
            approximate |= ready.approximate();
            long launch = g.enqueueNs();
            int previous = previousCommOnLane(step, g);
            long queueFree = previous >= 0 ? dev.end(previous) : Time.UNKNOWN;
            long epsilon = options.epsilonFor(g.durationNs());

            BoundBy bound = BoundBy.UNEXPLAINED;
            long best = Long.MIN_VALUE;
            // Order = tie preference: a later candidate replaces the best only when strictly later.
            if (ready.known() && within(ready.readyNs(), s, epsilon)) {
                bound = BoundBy.DATA;
                best = ready.readyNs();
            }
            if (Time.isKnown(queueFree) && within(queueFree, s, epsilon)
                    && (bound == BoundBy.UNEXPLAINED || queueFree > best)) {
                bound = BoundBy.QUEUE;
                best = queueFree;
            }
            if (Time.isKnown(launch) && within(launch, s, epsilon)
                    && (bound == BoundBy.UNEXPLAINED || launch > best)) {
                bound = BoundBy.LAUNCH;
            }
            chain.add(new ChainLink(g.id(), g.collective().type().name(),
                    g.collective().bytes() >= 0 ? g.collective().bytes() : null, g.startNs(), g.endNs(),
                    ready.orNull(), Time.isKnown(launch) ? launch : null,
                    Time.isKnown(queueFree) ? queueFree : null, bound));
            if (bound != BoundBy.QUEUE) {
                break;
            }
            int owner = dev.collective(previous);
            g = owner >= 0 ? step.collective(owner) : null;
        }
        int[] ids = new int[chain.size()];
        long[] durations = new long[chain.size()];
        for (int k = 0; k < chain.size(); k++) {
            ids[k] = chain.get(k).collective();
            durations[k] = chain.get(k).endNs() - chain.get(k).startNs();
        }
        return new Result(new Attribution(classify(chain, CommSplitAnalysis.mostlyWaiting(ids, durations, waits)),
                chain), approximate);
    }

    static TailKind classify(List<ChainLink> chain) {
        return classify(chain, false);
    }

    static TailKind classify(List<ChainLink> chain, boolean mostlyWaiting) {
        if (chain.isEmpty()) {
            return TailKind.NONE;
        }
        BoundBy end = chain.get(chain.size() - 1).boundBy();
        if (end == BoundBy.LAUNCH) {
            return TailKind.LAUNCH_BOUND;
        }
        if (mostlyWaiting) {
            return TailKind.WAIT;
        }
        for (ChainLink link : chain) {
            if (link.boundBy() == BoundBy.QUEUE) {
                return TailKind.COMM_BOUND;
            }
        }
        return end == BoundBy.DATA ? TailKind.LAST_BUCKET : TailKind.UNEXPLAINED;
    }

    /** |candidate − s| ≤ ε, without overflow for far-apart host/device times. */
    private static boolean within(long candidate, long s, long epsilon) {
        return candidate >= s - epsilon && candidate <= s + epsilon;
    }

    /** The COMM interval before {@code g} on its lane (latest start strictly before g's), or -1. */
    private static int previousCommOnLane(StepContext step, CollectiveSpan g) {
        int[] lane = step.commOnLane(g.lane());
        DeviceIntervals dev = step.device();
        int lo = 0;
        int hi = lane.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (dev.start(lane[mid]) < g.startNs()) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        while (found >= 0 && dev.collective(lane[found]) == g.id()) {
            found--;
        }
        return found >= 0 ? lane[found] : -1;
    }
}
