package io.overlapanalyze.options;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.formats.input.SniffedInput;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A command's trace inputs (a picocli mixin on every command that reads traces): how they are read
 * ({@link InputOptions}) and what a kernel is ({@link KernelPatternOptions}), the expansion of the
 * paths the command was given, done once, and the check that an output never lands on what they
 * expand to. The paths themselves stay with each command: their label and arity differ (PATH...,
 * TRACE, A B, CURRENT with --baseline).
 */
public final class TraceInputs {
    @Mixin
    KernelPatternOptions kernelPatterns = new KernelPatternOptions();

    @Mixin
    InputOptions options = new InputOptions();

    /**
     * What the pipeline reads for {@code paths}, every option checked here (a bad value is exit 2
     * before anything is read). Nothing is expanded yet.
     */
    public PipelineInput pipeline(List<Path> paths) {
        return options.pipeline(paths, kernelPatterns.rules());
    }

    /** {@link #expand(PipelineInput, TraceFormats.Keep)} keeping no file found that is not a trace. */
    public Expanded expand(PipelineInput in) {
        return expand(in, TraceFormats.Keep.NOTHING);
    }

    /**
     * Expands {@code in.paths()}, once: the files the pipeline reads, and everything the paths make
     * the command touch, for the output-safety check.
     *
     * @param keep a file found by walking a directory or a glob that is no trace by content is still
     *             read when this accepts it (a saved summary, for diff and gate); it is told from what
     *             the front door sniffed
     */
    public Expanded expand(PipelineInput in, TraceFormats.Keep keep) {
        // Every file the walk found, traces or not: an output must not replace a job's config.json either.
        Set<Path> lookedAt = new LinkedHashSet<>();
        TraceFormats.Expanded found = AnalysisPipeline.expand(in, new TraceFormats.Keep() {
            @Override
            public boolean keep(Path file, SniffedInput sniffed) {
                lookedAt.add(file);
                return keep.keep(file, sniffed);
            }

            @Override
            public boolean looksAtNamedFiles() {
                return keep.looksAtNamedFiles();
            }
        });
        List<Path> touched = new ArrayList<>(in.paths());
        touched.addAll(found.files());
        touched.addAll(lookedAt);
        return new Expanded(in, found, touched);
    }

    /** The kernel-pattern options (their rules, as plain data, go to another JVM). */
    public KernelPatternOptions kernelPatterns() {
        return kernelPatterns;
    }

    /** The input options. */
    public InputOptions options() {
        return options;
    }

    /**
     * Inputs expanded once.
     *
     * @param pipeline what the pipeline reads and how
     * @param files    the expansion: the files to read, those left out as no trace, the directories that cannot be listed
     * @param touched  the paths as typed (a directory counts whole) and every file they expand to, traces or not:
     *                 an output never lands on one of them
     */
    public record Expanded(PipelineInput pipeline, TraceFormats.Expanded files, List<Path> touched) {
        public Expanded {
            touched = List.copyOf(touched);
        }

        /** Refuses, before any work, each output that would change an input ({@code null}: not asked for). */
        public void check(Path... outputs) {
            for (Path output : outputs) {
                SafeOutput.check(output, touched);
            }
        }

        /** Reads and analyses these files ({@link AnalysisPipeline#analyse}), without expanding again. */
        public io.overlapanalyze.pipeline.PipelineResult run(java.io.PrintWriter progress) {
            return AnalysisPipeline.analyse(files, pipeline, progress);
        }
    }
}
