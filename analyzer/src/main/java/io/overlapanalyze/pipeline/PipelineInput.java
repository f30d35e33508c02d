package io.overlapanalyze.pipeline;

import io.overlapanalyze.analysis.AnalysisOptions;

import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the pipeline reads and how: the paths as typed, an optional file-name filter for
 * directories, the rank-naming regex, the Nsight step pattern, a step selection, the analysis
 * options, and whether several ranks are also analysed across ranks.
 *
 * @param paths       trace files, directories (searched recursively) or quoted globs
 * @param nameFilter  in directories, only files whose name matches; {@code null}: the usual trace names
 * @param rankRegex   rank from the file path when the trace does not say; {@code null}: the usual names
 * @param stepPattern NVTX ranges that are steps (Nsight); {@code null}: the default patterns
 * @param steps       only these steps; {@code null}: all
 * @param options     analysis options (partial steps)
 * @param crossRank   with several inputs, analyse across ranks too
 */
public record PipelineInput(List<Path> paths, PathMatcher nameFilter, String rankRegex, Pattern stepPattern,
                            StepSelection steps, AnalysisOptions options, boolean crossRank) {
    public PipelineInput {
        paths = List.copyOf(paths);
        options = options == null ? AnalysisOptions.defaults() : options;
    }

    /** The paths with every default: all steps, complete steps only, across ranks when there are several. */
    public static PipelineInput of(List<Path> paths) {
        return new PipelineInput(paths, null, null, null, null, AnalysisOptions.defaults(), true);
    }

    public PipelineInput withPaths(List<Path> p) {
        return new PipelineInput(p, nameFilter, rankRegex, stepPattern, steps, options, crossRank);
    }

    public PipelineInput withNameFilter(PathMatcher f) {
        return new PipelineInput(paths, f, rankRegex, stepPattern, steps, options, crossRank);
    }

    public PipelineInput withRankRegex(String r) {
        return new PipelineInput(paths, nameFilter, r, stepPattern, steps, options, crossRank);
    }

    public PipelineInput withStepPattern(Pattern p) {
        return new PipelineInput(paths, nameFilter, rankRegex, p, steps, options, crossRank);
    }

    public PipelineInput withSteps(StepSelection s) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, s, options, crossRank);
    }

    public PipelineInput withOptions(AnalysisOptions o) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, steps, o, crossRank);
    }

    public PipelineInput withCrossRank(boolean c) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, steps, options, c);
    }
}
