package io.overlapanalyze.formats.input;

import io.overlapanalyze.formats.kernels.KernelRules;

import java.util.regex.Pattern;

/**
 * How the readers read: what a step is where the format leaves it to the reader, and what a kernel is.
 *
 * @param stepPattern NVTX ranges whose name contains a match are steps (Nsight); {@code null}: the
 *                    reader's default patterns
 * @param kernelRules what a kernel is; {@code null}: the rules in force when the input is read
 *                    ({@link KernelRules#current()})
 */
public record ReadOptions(Pattern stepPattern, KernelRules kernelRules) {
    /** Default step patterns, the kernel rules in force. */
    public static final ReadOptions DEFAULT = new ReadOptions(null, null);

    /** The kernel rules to read with: the given ones, else those in force now. */
    public KernelRules rules() {
        return kernelRules != null ? kernelRules : KernelRules.current();
    }

    public ReadOptions withStepPattern(Pattern p) {
        return new ReadOptions(p, kernelRules);
    }

    public ReadOptions withKernelRules(KernelRules r) {
        return new ReadOptions(stepPattern, r);
    }
}
