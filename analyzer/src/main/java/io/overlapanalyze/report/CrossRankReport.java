package io.overlapanalyze.report;

import java.util.List;
import java.util.Map;

/**
 * The cross-rank section of a multi-rank report (metrics.md §8, §9 bandwidth). JSON field names
 * {@code mismatches}, {@code clockOffsetsNs} and {@code stragglers} (and their members) are a
 * contract read by scripts: do not rename.
 *
 * @param ranks          ranks analysed together, ascending
 * @param worldSize      the job's world size when the traces say, else {@code null}
 * @param missingRanks   ranks below the world size that no input holds, ascending; {@code null} when more
 *                       than {@link #MAX_LISTED_MISSING} are missing (then {@code missingRankRanges} only)
 * @param inputProblems  inputs left out of the cross-rank analysis, and why
 * @param clock          how clocks were aligned
 * @param clockOffsetsNs per rank, its clock minus the mean clock (median of {@code end_r − mean end}); empty when not aligned
 * @param groups         per process group: how collectives were matched
 * @param mismatches     first divergence per group, and every missing collective (likely hang)
 * @param skew           per-collective arrival skew summary
 * @param stragglers     per rank, most-waited-for first
 * @param bandwidth      per collective type
 * @param collectives    every collective matched on all its group's ranks, in group order
 * @param worstTails     per step, the rank with the longest tail
 * @param notes          what the analysis assumed or could not do
 * @param peerBoundTails per rank and step, tails whose last collective mostly waited for a late peer
 * @param missingRankRanges the missing ranks as ranges of consecutive ids, ascending (always given)
 */
public record CrossRankReport(List<Integer> ranks, Integer worldSize, List<Integer> missingRanks,
                              List<InputProblem> inputProblems, ClockAlignment clock, Map<Integer, Long> clockOffsetsNs,
                              List<GroupSummary> groups, List<Mismatch> mismatches, SkewSummary skew,
                              List<Straggler> stragglers, List<BandwidthByType> bandwidth,
                              List<MatchedCollective> collectives, List<StepTail> worstTails, List<String> notes,
                              List<PeerBoundTail> peerBoundTails, List<RankRange> missingRankRanges)
        implements java.io.Serializable {
    /** At most this many missing ranks are listed one by one in {@code missingRanks}. */
    public static final int MAX_LISTED_MISSING = 4096;

    public CrossRankReport {
        ranks = List.copyOf(ranks);
        if (missingRankRanges == null) {
            // Written by an older tool, or built from a list: the ranges of that list.
            missingRankRanges = missingRanks == null ? List.of() : RankRanges.of(missingRanks);
        }
        missingRankRanges = List.copyOf(missingRankRanges);
        missingRanks = missingRanks == null ? null : List.copyOf(missingRanks);
        inputProblems = List.copyOf(inputProblems);
        clockOffsetsNs = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(clockOffsetsNs));
        groups = List.copyOf(groups);
        mismatches = List.copyOf(mismatches);
        stragglers = List.copyOf(stragglers);
        bandwidth = List.copyOf(bandwidth);
        collectives = List.copyOf(collectives);
        worstTails = List.copyOf(worstTails);
        notes = List.copyOf(notes);
        peerBoundTails = peerBoundTails == null ? List.of() : List.copyOf(peerBoundTails);
    }

    /** The tails of one rank that a late peer made long, in step order. */
    public List<PeerBoundTail> peerBoundTails(int rank) {
        return peerBoundTails.stream().filter(t -> t.rank() == rank).toList();
    }
}
