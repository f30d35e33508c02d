package io.overlapanalyze.findings;

import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

/**
 * One step's time, handed out to the causes that could save it, each nanosecond at most once
 * (metrics.md §13: savings are never counted twice across findings of one rank). The idle parts and
 * the copies come from the breakdown (§11), which splits the period into disjoint parts already. The
 * exposed communication is handed out in a fixed order, each cause taking what is left: exposed
 * send/recv of a pipeline, late prefetch, the waiting of the split (§12: a tail that waited is
 * shortened by the late side, never by a smaller bucket), the tail (when its cause is the transfer
 * or a late launch), a late first launch, then the split's transfer; what no split explains stays
 * unsplit.
 *
 * @param hostNs         idle waiting for the host
 * @param launchedNs     idle after the work was issued
 * @param copyNs         copies with nothing else running
 * @param bubbleNs       exposed send/recv (pipeline)
 * @param prefetchNs     compute waiting for all-gathers
 * @param tailNs         a tail whose cause is LAST_BUCKET, COMM_BOUND or LAUNCH_BOUND
 * @param launchLateNs   the first gradient collective issued after its data was ready (not a
 *                       LAUNCH_BOUND tail, which the tail already claims)
 * @param waitingNs      exposed communication spent waiting
 * @param transferNs     exposed communication spent transferring
 * @param unsplitNs      exposed communication with no split known
 */
record StepClaims(long hostNs, long launchedNs, long copyNs, long bubbleNs, long prefetchNs, long tailNs,
                  long launchLateNs, long waitingNs, long transferNs, long unsplitNs) {

    /** @param commKnown false when the trace cannot tell communication from compute */
    static StepClaims of(StepReport s, boolean commKnown) {
        IdleBreakdown idle = s.idle();
        StepBreakdown breakdown = s.breakdown();
        long host = idle == null ? 0 : idle.hostNs();
        long launched = idle == null ? 0 : idle.launchedNs();
        long copy = breakdown == null ? 0 : breakdown.copyNs();
        if (!commKnown) {
            return new StepClaims(host, launched, copy, 0, 0, 0, 0, 0, 0, 0);
        }
        long left = s.exposedCommNs();
        long bubble = take(s.pipeline() == null ? 0 : s.pipeline().p2pExposedNs(), left);
        left -= bubble;
        long prefetch = take(s.exposedPrefetchNs() == null ? 0 : s.exposedPrefetchNs(), left);
        left -= prefetch;
        // Waiting first: a tail that waited for a peer is shortened by the peer, not by a smaller bucket.
        long waiting = s.commSplit().known() ? take(s.commSplit().waitNs(), left) : 0;
        left -= waiting;
        TailKind kind = s.attribution().kind();
        boolean tailOfItsOwn = kind == TailKind.LAST_BUCKET || kind == TailKind.COMM_BOUND
                || kind == TailKind.LAUNCH_BOUND;
        long tail = tailOfItsOwn && s.tailNs() != null ? take(s.tailNs(), left) : 0;
        left -= tail;
        long late = 0;
        if (kind != TailKind.LAUNCH_BOUND && s.launchLateNs() != null) {
            late = take(Math.min(s.launchLateNs(), s.exposedGradCommNs()), left);
        }
        left -= late;
        long transfer = s.commSplit().known() ? left : 0;
        long unsplit = s.commSplit().known() ? 0 : left;
        return new StepClaims(host, launched, copy, bubble, prefetch, tail, late, waiting, transfer, unsplit);
    }

    private static long take(long wanted, long left) {
        return Math.max(0, Math.min(wanted, left));
    }
}
