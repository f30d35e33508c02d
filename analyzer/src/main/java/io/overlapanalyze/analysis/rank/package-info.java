/**
 * The single-rank analysis as one call: {@link io.overlapanalyze.analysis.rank.RankAnalyzer} runs the
 * building blocks and DDP metrics of {@code io.overlapanalyze.analysis} and the analyses of
 * {@code io.overlapanalyze.analysis.patterns} over one rank. It sits above both so that neither names it.
 */
package io.overlapanalyze.analysis.rank;
