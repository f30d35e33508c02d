package io.overlapanalyze.model;

/**
 * The host spans the analyzer needs. Readers keep only these, not every CPU op, so the model
 * stays small on traces with millions of host events.
 */
public enum HostSpanKind {
    /** A training step annotation ({@code ProfilerStep#N}, or an NVTX step range). */
    STEP,
    /** An {@code Optimizer.step#...} annotation (not {@code Optimizer.zero_grad#...}). */
    OPTIMIZER,
    /** An autograd op ({@code autograd::engine::evaluate_function: ...} or a {@code ...Backward...} op). */
    BACKWARD,
    /**
     * Any other host range (host op, annotation, NVTX range), kept only in
     * {@link RankTrace#hostRanges()} to say what a host thread was doing (metrics.md §11); never
     * in {@link RankTrace#hostSpans()}.
     */
    RANGE
}
