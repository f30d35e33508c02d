package io.overlapanalyze.compare;

/**
 * What a gate lets pass that it would otherwise fail (metrics.md §10): each is an explicit opt-out
 * of the user's, so the default is the strict one.
 *
 * @param allowMismatch      a cross-rank {@code ERROR} in the current run passes, with a warning
 *                           ({@code --allow-mismatch})
 * @param inconclusivePasses a check over its thresholds with too few samples to test passes, with a
 *                           warning ({@code --inconclusive pass}); by default it fails the gate
 */
public record GatePolicy(boolean allowMismatch, boolean inconclusivePasses) {
    /** Nothing allowed: every doubt fails. */
    public static final GatePolicy STRICT = new GatePolicy(false, false);
}
