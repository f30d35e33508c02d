package io.overlapanalyze.reportfile;

import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a bound summary's values for sense, after {@link SummaryShape} has checked their kinds: a
 * baseline is trusted by every later gate, so a value no analysis can produce is bad input, never a
 * number to compare with (issue 28 case 4). A negative or zero step time makes every run look like a
 * regression; a time near 2^63 ns makes every later run look like an improvement; a rank listed
 * twice counts each of its samples twice.
 *
 * <p>The rules, from metrics.md §1–§2 (every duration is a measure of intervals inside the step's
 * device window): durations are non-negative; the step time is the window's length; the busy, exposed,
 * tail, fused and prefetch times are parts of it, so none is longer; the overlap is part of both busy
 * times and the exposed gradient communication part of the exposed communication; no duration
 * reaches 2^53 ns (104 days: beyond it the significance test, which ranks values as doubles, could
 * no longer order them). Each rank id appears once.
 */
final class SummarySense {
    /** Durations at or above this are impossible (see the class comment). */
    static final long MAX_NS = 1L << 53;

    private SummarySense() {
    }

    /** Throws {@link SummaryShape.Problem} naming the first impossible value by its JSON path. */
    static void check(AnalysisReport report) {
        Map<Integer, Integer> seen = new HashMap<>();
        List<RankReport> ranks = report.ranks();
        for (int r = 0; r < ranks.size(); r++) {
            RankReport rank = ranks.get(r);
            Integer first = seen.putIfAbsent(rank.rank(), r);
            if (first != null) {
                throw new SummaryShape.Problem("ranks[" + r + "].rank: rank " + rank.rank() + " appears twice (also "
                        + "ranks[" + first + "]): its samples would count twice; write the summary from one run, with "
                        + "--rank-regex when the file names do not tell the ranks apart");
            }
            List<StepReport> steps = rank.steps();
            for (int s = 0; s < steps.size(); s++) {
                step(steps.get(s), "ranks[" + r + "].steps[" + s + "].");
            }
        }
    }

    private static void step(StepReport st, String at) {
        long step = duration(at, "stepTimeNs", st.stepTimeNs());
        if (st.deviceStartNs() != null && st.deviceEndNs() != null) {
            long start = st.deviceStartNs();
            long end = st.deviceEndNs();
            if (end < start) {
                throw new SummaryShape.Problem(at + "deviceEndNs: " + end + " is before deviceStartNs " + start);
            }
            if (end - start != step) {
                throw new SummaryShape.Problem(at + "stepTimeNs: " + step + " is not the device window's length "
                        + "(deviceEndNs − deviceStartNs = " + (end - start) + ")");
            }
        }
        long comm = part(at, "commBusyNs", st.commBusyNs(), "stepTimeNs", step);
        long compute = part(at, "computeBusyNs", st.computeBusyNs(), "stepTimeNs", step);
        part(at, "overlappedNs", st.overlappedNs(), "commBusyNs", comm);
        part(at, "overlappedNs", st.overlappedNs(), "computeBusyNs", compute);
        long exposed = part(at, "exposedCommNs", st.exposedCommNs(), "commBusyNs", comm);
        part(at, "exposedGradCommNs", st.exposedGradCommNs(), "exposedCommNs", exposed);
        duration(at, "idleNs", st.idleNs());
        duration(at, "serialEstimateNs", st.serialEstimateNs());
        optionalPart(at, "tailNs", st.tailNs(), step);
        optionalPart(at, "fusedBusyNs", st.fusedBusyNs(), step);
        optionalPart(at, "exposedPrefetchNs", st.exposedPrefetchNs(), step);
        if (st.stepPeriodNs() != null) {
            duration(at, "stepPeriodNs", st.stepPeriodNs());
        }
    }

    private static long duration(String at, String field, long v) {
        if (v < 0) {
            throw new SummaryShape.Problem(at + field + ": negative time " + v);
        }
        if (v >= MAX_NS) {
            throw new SummaryShape.Problem(at + field + ": " + v + " ns is not a possible time (104 days or more)");
        }
        return v;
    }

    private static long part(String at, String field, long v, String wholeField, long whole) {
        duration(at, field, v);
        if (v > whole) {
            throw new SummaryShape.Problem(at + field + ": " + v + " is longer than " + wholeField + " " + whole
                    + ", which it is part of");
        }
        return v;
    }

    private static void optionalPart(String at, String field, Long v, long step) {
        if (v != null) {
            part(at, field, v, "stepTimeNs", step);
        }
    }
}
