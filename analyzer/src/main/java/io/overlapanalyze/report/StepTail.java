package io.overlapanalyze.report;

/**
 * The worst tail of one step across ranks: the optimizer of every rank waits for it.
 *
 * @param step         step name
 * @param worstRank    rank with the longest tail
 * @param tailNs       its tail
 * @param kind         its tail attribution
 * @param minTailNs    shortest tail of the step over ranks
 * @param ranks        ranks with the step and a defined tail
 */
public record StepTail(String step, int worstRank, long tailNs, String kind, long minTailNs, int ranks)
        implements java.io.Serializable {
}
