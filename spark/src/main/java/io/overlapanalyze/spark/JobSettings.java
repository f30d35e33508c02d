package io.overlapanalyze.spark;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.RankNaming;
import io.overlapanalyze.formats.input.InputLimits;
import io.overlapanalyze.formats.input.ReadOptions;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineInputException;
import io.overlapanalyze.pipeline.StepSelection;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How every task reads and analyses its rank: the analyze options the user gave, checked on the
 * driver (a bad value is exit 2 before any task starts) and sent to the executors, where no
 * command line was parsed. Executors share nothing with the driver but this.
 *
 * @param rankRegex     rank from the file path when the trace does not say; {@code null}: the usual names
 * @param stepPattern   NVTX ranges that are steps (Nsight); {@code null}: the default patterns
 * @param steps         only these steps; {@code null}: all
 * @param options       analysis options (partial steps)
 * @param limits        input size limits
 * @param kernelRules   the user's kernel patterns, in the order they are tried (empty: built-in rules only)
 * @param reportParts   where a task writes a rank's full report when it is too big to send back
 *                      (a directory URI next to the output), or {@code null}: always send it back
 * @param inlineBytes   the largest report (as JSON) a task sends back when {@code reportParts} is set
 * @param htmlRanks     for an HTML page: how many inputs the job has (tasks send the timelines the
 *                      page is likely to draw, {@code RemoteTimelines}); 0: no page, nothing sent
 * @param timelineSteps a second read for a page: the steps whose unions to send, by rank
 *                      ({@link #rankKey}); {@code null} on the first read
 */
record JobSettings(String rankRegex, Pattern stepPattern, StepSelection steps, AnalysisOptions options,
                   InputLimits limits, List<KernelRules.UserPattern> kernelRules, String reportParts,
                   long inlineBytes, int htmlRanks, Map<String, Set<String>> timelineSteps) implements Serializable {
    private static final long serialVersionUID = 1L;

    JobSettings {
        kernelRules = List.copyOf(kernelRules);
        timelineSteps = timelineSteps == null ? null : new HashMap<>(timelineSteps);
    }

    /**
     * The settings of a run: what {@code in} says, with its kernel rules (the user's patterns, as
     * plain data) and input limits from {@link PipelineInput#read()}, for the tasks to read with.
     */
    static JobSettings of(PipelineInput in) {
        try {
            new RankNaming(in.rankRegex()); // checked here, as the pipeline checks it, before any task
        } catch (IllegalArgumentException e) {
            throw new PipelineInputException(e.getMessage(), e);
        }
        return new JobSettings(in.rankRegex(), in.stepPattern(), in.steps(), in.options(), in.read().limits(),
                in.read().rules().userPatterns(), null, Long.MAX_VALUE, 0, null);
    }

    JobSettings withReportParts(String directory, long maxInlineBytes) {
        return new JobSettings(rankRegex, stepPattern, steps, options, limits, kernelRules, directory, maxInlineBytes,
                htmlRanks, timelineSteps);
    }

    JobSettings withHtml(int inputs) {
        return new JobSettings(rankRegex, stepPattern, steps, options, limits, kernelRules, reportParts, inlineBytes,
                Math.max(1, inputs), timelineSteps);
    }

    JobSettings withTimelineSteps(Map<String, Set<String>> byRank) {
        return new JobSettings(rankRegex, stepPattern, steps, options, limits, kernelRules, reportParts, inlineBytes,
                htmlRanks, byRank);
    }

    /** The {@code k}-th rank read from {@code file}: the key of {@link #timelineSteps}. */
    static String rankKey(RankFile file, int k) {
        return k + "#" + file.location();
    }

    /** The input's location in a {@link #rankKey}. */
    static String fileOfKey(String key) {
        return key.substring(key.indexOf('#') + 1);
    }

    /** How a task reads: the driver's step pattern, kernel rules and limits, rebuilt in the executor's JVM. */
    ReadOptions readOptions() {
        return new ReadOptions(stepPattern, KernelRules.withUserPatterns(kernelRules), limits);
    }

    RankNaming naming() {
        return new RankNaming(rankRegex);
    }
}
