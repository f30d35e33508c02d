/**
 * The analyses of how a step is run beyond plain data parallelism, one class each and all
 * format-blind: which parallelism the collectives show ({@link io.overlapanalyze.analysis.patterns.ParallelismDetector}),
 * FSDP prefetch, pipeline bubbles, compute/communication contention, memory peaks and launch
 * diagnostics (metrics.md §9; the report's "beyond DDP" sections). They build on the blocks of
 * {@code io.overlapanalyze.analysis}; {@code analysis.rank} runs them per rank.
 */
package io.overlapanalyze.analysis.patterns;
