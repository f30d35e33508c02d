package io.overlapanalyze.render;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.CommSplit;
import io.overlapanalyze.report.PeerBoundTail;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/** One-sentence meanings shared by the human renderers (metrics.md §6). */
public final class Explanations {
    private Explanations() {
    }

    public static String tail(TailKind kind) {
        return switch (kind) {
            case COMM_BOUND -> "communication issued after the first bucket was ready exceeds the compute left to "
                    + "hide it; overlap cannot remove this tail, only fewer bytes or more bandwidth";
            case LAST_BUCKET -> "the tail is the last bucket's own transfer; a smaller last bucket (or overlapping "
                    + "it with the optimizer) shortens it";
            case LAUNCH_BOUND -> "the host issued a collective after its data was ready (late launch)";
            case UNEXPLAINED -> "a collective started later than anything traced explains (waiting for peers, "
                    + "or an untraced dependency)";
            case WAIT -> "most of the tail's communication was waiting, not transferring: more bandwidth or a "
                    + "different bucket size cannot shorten it; find what the collective waited for";
            case NONE -> "no tail: the last reduction ended before the last backward compute";
        };
    }

    /**
     * {@link #tail(TailKind)}, and for WAIT whom the collectives may have waited for when the report
     * says: ranks outside the input, when the rank's notes say its group may have some.
     */
    public static String tail(TailKind kind, RankReport rank) {
        return tail(kind, rank != null && waitsOutsideInput(rank));
    }

    /** {@link #tail(TailKind, RankReport)} where whether the rank's waiting may be outside the input is known. */
    public static String tail(TailKind kind, boolean waitsOutsideInput) {
        String meaning = tail(kind);
        if (kind == TailKind.WAIT && waitsOutsideInput) {
            return meaning + " (its group has ranks that may be outside the input: see the notes)";
        }
        return meaning;
    }

    /** True when the rank's notes say its waiting may be for ranks that are not in the input (metrics.md §12). */
    public static boolean waitsOutsideInput(RankReport rank) {
        return rank.notes().stream().anyMatch(n -> n.endsWith(CommSplit.OUTSIDE_RANKS_NOTE_END));
    }

    /**
     * "exposed comm 16.000 ms: waiting 11.000 ms, transfer 5.000 ms (profiler; 2 of 2 steps)": the
     * transfer / waiting split of metrics.md §12 added over {@code steps} where it is known; {@code null}
     * when no step has one.
     */
    public static String commSplit(List<StepReport> steps) {
        long wait = 0;
        long transfer = 0;
        int known = 0;
        java.util.Set<String> sources = new java.util.TreeSet<>();
        for (StepReport s : steps) {
            CommSplit c = s.commSplit();
            if (c != null && c.known()) {
                wait += c.waitNs();
                transfer += c.transferNs();
                known++;
                if (c.source() != null) {
                    sources.add(c.source());
                }
            }
        }
        if (known == 0) {
            return null;
        }
        return "exposed comm " + Units.msUnit(wait + transfer) + ": waiting " + Units.msUnit(wait) + ", transfer "
                + Units.msUnit(transfer) + " (" + String.join(", ", sources) + "; " + known + " of " + steps.size()
                + (steps.size() == 1 ? " step)" : " steps)");
    }

    /**
     * Whether the late-peer advice replaces the tail kind's own: when at least half of the steps
     * with a tail end on a collective that waited for a late peer for a quarter of it or more (metrics.md §8).
     */
    public static boolean peerBoundDominates(List<PeerBoundTail> peerBound, int stepsWithTail) {
        return !peerBound.isEmpty() && 2 * peerBound.size() >= stepsWithTail;
    }

    /**
     * "the last reduction waited for rank 5 in 3 of 5 steps (median 2.100 ms of 3.000 ms): ...": which
     * rank was late and by how much (a quarter or more of the collective, see the analyzer's
     * PeerBoundTails), and why a bucket size cannot help.
     */
    public static String peerBound(List<PeerBoundTail> peerBound, int stepsWithTail) {
        Map<Integer, Long> late = peerBound.stream().map(PeerBoundTail::lateRank).filter(Objects::nonNull)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        String who = late.entrySet().stream().max(Map.Entry.<Integer, Long>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                .map(e -> "rank " + e.getKey()).orElse("a late peer");
        long wait = median(peerBound.stream().map(PeerBoundTail::waitNs).toList());
        long duration = median(peerBound.stream().map(PeerBoundTail::durationNs).toList());
        return "the last reduction waited for " + who + " in " + peerBound.size() + " of "
                + stepsWithTail + (stepsWithTail == 1 ? " step" : " steps") + " (median "
                + Units.msUnit(wait) + " of " + Units.msUnit(duration) + "): " + who
                + " arrived late; a smaller bucket cannot fix a straggler, find what delays " + who;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * "3 of 3 steps: not available: no usable data: …" once per rank (the first step's reason), or
     * {@code null} when every step has usable data: such steps stay in the table, marked partial.
     */
    static String noUsableData(io.overlapanalyze.report.RankReport rank) {
        java.util.List<io.overlapanalyze.report.StepReport> bad = rank.steps().stream()
                .filter(st -> !st.hasUsableData()).toList();
        if (bad.isEmpty()) {
            return null;
        }
        String note = bad.get(0).notes().stream()
                .filter(n -> n.startsWith(io.overlapanalyze.report.StepReport.NO_USABLE_DATA_NOTE)).findFirst()
                .orElse(io.overlapanalyze.report.StepReport.NO_USABLE_DATA_NOTE);
        return bad.size() + " of " + rank.steps().size() + " steps: " + note
                + " (shown marked partial, left out of the totals and the findings)";
    }
}
