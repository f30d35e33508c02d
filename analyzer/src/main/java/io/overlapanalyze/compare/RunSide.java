package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;

/**
 * What a comparison says about one of its inputs.
 *
 * @param label  the path as the user typed it
 * @param origin "traces", or "summary written by TOOL"
 * @param ranks  ranks in the run
 * @param steps  aggregated (rank, step) pairs: the samples behind every median
 */
public record RunSide(String label, String origin, int ranks, int steps) {
    public static RunSide of(Run run, AnalysisOptions options) {
        return new RunSide(run.label(), run.origin(), run.ranks().size(), run.aggregatedSteps(options).size());
    }
}
