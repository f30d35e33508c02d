package io.overlapanalyze.report;

import java.util.List;

/**
 * The whole report: plain data that JSON serialises and the other renderers view.
 *
 * @param schemaVersion version of this JSON layout; bumped on any incompatible change
 * @param tool          tool name and version that wrote it
 * @param ranks         per-rank results, by rank
 * @param crossRank     the cross-rank section (metrics.md §8) when several ranks were given, else {@code null}
 * @param findings      what to change for the whole job, ranked by the effect on the slowest rank's
 *                      step (metrics.md §13); empty in reports written before findings existed
 * @param hang          what Flight Recorder dumps say about a hung job, or {@code null} (not written in
 *                      JSON) when no input is a dump
 */
public record AnalysisReport(int schemaVersion, String tool, List<RankReport> ranks, CrossRankReport crossRank,
                             List<Finding> findings,
                             @com.fasterxml.jackson.annotation.JsonInclude(
                                     com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                             HangReport hang) implements java.io.Serializable {
    /** Current layout version. */
    public static final int SCHEMA_VERSION = 1;

    public AnalysisReport {
        ranks = List.copyOf(ranks);
        findings = findings == null ? List.of() : List.copyOf(findings);
    }
}
