package io.overlapanalyze.pipeline;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.TraceFormats;

import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the pipeline reads and how: the paths as typed, an optional file-name filter for
 * directories, the rank-naming regex, the Nsight step pattern, a step selection, the analysis
 * options, whether several ranks are also analysed across ranks, and the readers to read with.
 *
 * @param paths       trace files, directories (searched recursively) or quoted globs
 * @param nameFilter  in directories, only files whose name matches; {@code null}: the usual trace names
 * @param rankRegex   rank from the file path when the trace does not say; {@code null}: the usual names
 * @param stepPattern NVTX ranges that are steps (Nsight); {@code null}: the default patterns
 * @param steps       only these steps; {@code null}: all
 * @param options     analysis options (partial steps)
 * @param crossRank   with several inputs, analyse across ranks too
 * @param formats     the reading front door with its readers; {@code null}: {@link TraceFormats#standard()}
 */
public record PipelineInput(List<Path> paths, PathMatcher nameFilter, String rankRegex, Pattern stepPattern,
                            StepSelection steps, AnalysisOptions options, boolean crossRank, TraceFormats formats) {
    public PipelineInput {
        paths = List.copyOf(paths);
        options = options == null ? AnalysisOptions.defaults() : options;
        formats = formats == null ? TraceFormats.standard() : formats;
    }

    /** The paths with every default: all steps, complete steps only, across ranks when there are several. */
    public static PipelineInput of(List<Path> paths) {
        return new PipelineInput(paths, null, null, null, null, AnalysisOptions.defaults(), true, null);
    }

    public PipelineInput withPaths(List<Path> p) {
        return new PipelineInput(p, nameFilter, rankRegex, stepPattern, steps, options, crossRank, formats);
    }

    public PipelineInput withNameFilter(PathMatcher f) {
        return new PipelineInput(paths, f, rankRegex, stepPattern, steps, options, crossRank, formats);
    }

    public PipelineInput withRankRegex(String r) {
        return new PipelineInput(paths, nameFilter, r, stepPattern, steps, options, crossRank, formats);
    }

    public PipelineInput withStepPattern(Pattern p) {
        return new PipelineInput(paths, nameFilter, rankRegex, p, steps, options, crossRank, formats);
    }

    public PipelineInput withSteps(StepSelection s) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, s, options, crossRank, formats);
    }

    public PipelineInput withOptions(AnalysisOptions o) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, steps, o, crossRank, formats);
    }

    /** Reads through these readers (a library caller's own format next to the standard ones). */
    public PipelineInput withFormats(TraceFormats f) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, steps, options, crossRank, f);
    }

    public PipelineInput withCrossRank(boolean c) {
        return new PipelineInput(paths, nameFilter, rankRegex, stepPattern, steps, options, c, formats);
    }
}
