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
 * @param exposedWaitNs per rank, the median over the steps the cross-rank analysis timed of its exposed
 *                    communication spent waiting for peers (§12 rule 2); absent for a rank without
 *                    that evidence (rough clocks, one rank)
 */
public record VerdictContext(CrossRankReport crossRank, Map<Integer, RankMedians> ranks, int ranksRead,
                             Map<Integer, Long> exposedWaitNs) {
    public VerdictContext {
        ranks = java.util.Collections.unmodifiableMap(new TreeMap<>(ranks));
        exposedWaitNs = java.util.Collections.unmodifiableMap(new TreeMap<>(exposedWaitNs));
    }

    /** The context of a job from medians computed elsewhere (one per rank read). */
    public static VerdictContext ofMedians(CrossRankReport crossRank, Map<Integer, RankMedians> medians,
                                           int ranksRead, Map<Integer, Long> exposedWaitNs) {
        return new VerdictContext(crossRank, medians, ranksRead, exposedWaitNs);
    }
}
