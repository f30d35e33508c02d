package io.overlapanalyze.options;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.StepSelection;
import picocli.CommandLine.Option;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How every command that reads traces reads them (a picocli mixin, next to
 * {@link KernelPatternOptions}): which files of a directory, how ranks are named, what a step is
 * and which steps count, and the size limits. One declaration, so that the commands cannot drift
 * apart again.
 */
public final class InputOptions {
    @Option(names = "--include", paramLabel = "GLOB",
            description = "In directories, only files whose name matches GLOB (default: *.json, *.json.gz, *.sqlite and Ascend capture directories).")
    String include;

    @Option(names = "--rank-regex", paramLabel = "REGEX",
            description = "Rank from the file path when the trace does not say: the first capture group, "
                    + "e.g. 'worker(\\d+)'. Replaces the built-in names (rank-3, rank3_, ..._3.pt.trace.json).")
    String rankRegex;

    @Option(names = "--step-pattern", paramLabel = "REGEX",
            description = {"Nsight exports: NVTX ranges whose name contains a match are steps (default: ProfilerStep#N,",
                    "step N, iteration N)."})
    String stepPattern;

    @Option(names = "--steps", paramLabel = "LIST",
            description = "Only these steps: numbers, ranges or names, e.g. 4,5 or 4-6 or ProfilerStep#5 (diff and "
                    + "gate: on both sides; annotate: the device lanes stay complete).")
    String steps;

    @Option(names = "--include-partial",
            description = "Count partial steps (cut by the capture, or missing device work) in totals, medians and "
                    + "comparisons (whatif: replay them too).")
    boolean includePartial;

    @Option(names = "--max-input-size", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "Refuse a file that is (or decompresses to) more than SIZE, e.g. 500g (default: 1t).")
    Long maxInputSize;

    @Option(names = "--max-ratio", paramLabel = "N",
            description = "Refuse a gzip file that decompresses more than N times its size (default: 200; "
                    + "gzip bombs reach 1000).")
    Integer maxRatio;

    /** {@code --include} as a matcher, or {@code null}. */
    public PathMatcher nameFilter() {
        if (include == null) {
            return null;
        }
        try {
            return FileSystems.getDefault().getPathMatcher("glob:" + include);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--include: not a valid glob: " + include);
        }
    }

    /** {@code --step-pattern} compiled, or {@code null}. */
    public Pattern stepPattern() {
        if (stepPattern == null) {
            return null;
        }
        try {
            return Pattern.compile(stepPattern);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new UserInputException("--step-pattern: not a valid regular expression: "
                    + e.getDescription() + " near index " + e.getIndex(), e);
        }
    }

    /** {@code --steps} parsed, or {@code null}. */
    public StepSelection selection() {
        return steps == null ? null : StepSelection.parse(steps);
    }

    /** The analysis options these inputs ask for. */
    public AnalysisOptions analysisOptions() {
        return AnalysisOptions.defaults().withIncludePartial(includePartial);
    }

    /**
     * What the pipeline reads for {@code paths}, read with {@code kernelRules} (from
     * {@link KernelPatternOptions#rules()}) and these options' step pattern and size limits (options
     * checked here, so a bad value is exit 2 before anything is read). Nothing is set for the
     * process: the settings travel in the returned value.
     */
    public PipelineInput pipeline(List<Path> paths, KernelRules kernelRules) {
        InputLimits limits = limits();
        return new PipelineInput(paths, nameFilter(), rankRegex, selection(), analysisOptions(), true, null,
                new ReadOptions(stepPattern(), kernelRules, limits));
    }

    /**
     * The size limits these options ask for, as plain data another JVM reads under (in its
     * {@link ReadOptions}: a Spark executor reads under the same limits as the driver).
     */
    public InputLimits limits() {
        InputLimits d = InputLimits.DEFAULT;
        try {
            return new InputLimits(maxInputSize != null ? maxInputSize : d.maxDecompressedBytes(),
                    maxRatio != null ? maxRatio : d.maxRatio());
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--max-input-size and --max-ratio must be positive");
        }
    }

    /** {@code --rank-regex} as given, or {@code null}. */
    public String rankRegex() {
        return rankRegex;
    }

    /** {@code --include-partial}. */
    public boolean includePartial() {
        return includePartial;
    }
}
