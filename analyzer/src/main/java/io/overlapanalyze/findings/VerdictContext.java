package io.overlapanalyze.findings;

import io.overlapanalyze.report.CrossRankReport;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a rank's findings may know of the rest of the job: the cross-rank section and, per rank,
 * the few medians that say why a late rank is late. {@code crossRank} is {@code null} for one rank.
 *
 * @param crossRank   the job's cross-rank section, or {@code null}
 * @param ranks       per rank id, its medians
 * @param ranksRead   how many ranks the input holds
 */
public record VerdictContext(CrossRankReport crossRank, Map<Integer, RankMedians> ranks, int ranksRead) {
    public VerdictContext {
        ranks = java.util.Collections.unmodifiableMap(new TreeMap<>(ranks));
    }

    /** The context of a job from medians computed elsewhere (one per rank read). */
    public static VerdictContext ofMedians(CrossRankReport crossRank, Map<Integer, RankMedians> medians,
                                           int ranksRead) {
        return new VerdictContext(crossRank, medians, ranksRead);
    }
}
