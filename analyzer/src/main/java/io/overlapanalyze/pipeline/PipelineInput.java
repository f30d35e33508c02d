package io.overlapanalyze.pipeline;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.ReadOptions;

import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the pipeline reads and how: the paths as typed, an optional file-name filter for
 * directories, the rank-naming regex, a step selection, the analysis options, whether several
 * ranks are also analysed across ranks, the readers to read with, and how they read (the Nsight
 * step pattern, the kernel rules, the input limits: the run's settings, as a value).
 *
 * @param paths       trace files, directories (searched recursively) or quoted globs
 * @param nameFilter  in directories, only files whose name matches; {@code null}: the usual trace names
 * @param rankRegex   rank from the file path when the trace does not say; {@code null}: the usual names
 * @param steps       only these steps; {@code null}: all
 * @param options     analysis options (partial steps)
 * @param crossRank   with several inputs, analyse across ranks too
 * @param formats     the reading front door with its readers; {@code null}: {@link TraceFormats#standard()}
 * @param read        how every file is read (step pattern, kernel rules, input limits); {@code null}:
 *                    {@link ReadOptions#DEFAULT}
 */
public record PipelineInput(List<Path> paths, PathMatcher nameFilter, String rankRegex,
                            StepSelection steps, AnalysisOptions options, boolean crossRank, TraceFormats formats,
                            ReadOptions read) {
    public PipelineInput {
        paths = List.copyOf(paths);
        options = options == null ? AnalysisOptions.defaults() : options;
        formats = formats == null ? TraceFormats.standard() : formats;
        read = read == null ? ReadOptions.DEFAULT : read;
    }

    /** The paths with every default: all steps, complete steps only, across ranks when there are several. */
    public static PipelineInput of(List<Path> paths) {
        return new PipelineInput(paths, null, null, null, AnalysisOptions.defaults(), true, null, null);
    }

    /** NVTX ranges that are steps (Nsight), from {@link #read()}; {@code null}: the default patterns. */
    public Pattern stepPattern() {
        return read.stepPattern();
    }

    public PipelineInput withPaths(List<Path> p) {
        return new PipelineInput(p, nameFilter, rankRegex, steps, options, crossRank, formats, read);
    }

    public PipelineInput withNameFilter(PathMatcher f) {
        return new PipelineInput(paths, f, rankRegex, steps, options, crossRank, formats, read);
    }

    public PipelineInput withRankRegex(String r) {
        return new PipelineInput(paths, nameFilter, r, steps, options, crossRank, formats, read);
    }

    public PipelineInput withStepPattern(Pattern p) {
        return withRead(read.withStepPattern(p));
    }

    public PipelineInput withSteps(StepSelection s) {
        return new PipelineInput(paths, nameFilter, rankRegex, s, options, crossRank, formats, read);
    }

    public PipelineInput withOptions(AnalysisOptions o) {
        return new PipelineInput(paths, nameFilter, rankRegex, steps, o, crossRank, formats, read);
    }

    /** Reads through these readers (a library caller's own format next to the standard ones). */
    public PipelineInput withFormats(TraceFormats f) {
        return new PipelineInput(paths, nameFilter, rankRegex, steps, options, crossRank, f, read);
    }

    public PipelineInput withCrossRank(boolean c) {
        return new PipelineInput(paths, nameFilter, rankRegex, steps, options, c, formats, read);
    }

    /** Reads every file this way (the kernel rules and input limits of the run, the step pattern). */
    public PipelineInput withRead(ReadOptions r) {
        return new PipelineInput(paths, nameFilter, rankRegex, steps, options, crossRank, formats, r);
    }
}
