package io.overlapanalyze.formats.input;

import io.overlapanalyze.formats.kernels.KernelRules;

import java.util.regex.Pattern;

/**
 * How the readers read, as a value handed to every read (a run's settings travel here, never in
 * process-wide state, so that a Spark executor or a library caller reads exactly as it is told):
 * what a step is where the format leaves it to the reader, what a kernel is, and how much one file
 * may decompress to.
 *
 * @param stepPattern NVTX ranges whose name contains a match are steps (Nsight); {@code null}: the
 *                    reader's default patterns
 * @param kernelRules what a kernel is; {@code null} is taken for {@link KernelRules#builtIn()}
 * @param limits      bounds on what one input file may decompress to; {@code null} is taken for
 *                    {@link InputLimits#DEFAULT}
 */
public record ReadOptions(Pattern stepPattern, KernelRules kernelRules, InputLimits limits) {
    /** Default step patterns, the built-in kernel rules, the default limits. */
    public static final ReadOptions DEFAULT = new ReadOptions(null, null, null);

    public ReadOptions {
        kernelRules = kernelRules != null ? kernelRules : KernelRules.builtIn();
        limits = limits != null ? limits : InputLimits.DEFAULT;
    }

    /** The kernel rules to read with ({@link #kernelRules()}). */
    public KernelRules rules() {
        return kernelRules;
    }

    public ReadOptions withStepPattern(Pattern p) {
        return new ReadOptions(p, kernelRules, limits);
    }

    public ReadOptions withKernelRules(KernelRules r) {
        return new ReadOptions(stepPattern, r, limits);
    }

    public ReadOptions withLimits(InputLimits l) {
        return new ReadOptions(stepPattern, kernelRules, l);
    }
}
