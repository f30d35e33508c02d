package io.overlapanalyze.whatif;

/**
 * The finest known grain of gradient production: {@code bytes} of gradients produced by compute
 * running over {@code [startNs, readyNs]}, complete at {@code readyNs}.
 *
 * <ul>
 *   <li>Model scenario: a layer (indivisible: DDP never splits a parameter across buckets).</li>
 *   <li>Trace: one backward compute kernel of a bucket, carrying the bucket's bytes in proportion
 *       to its duration (the bucket's gradients are assumed to become ready evenly over its
 *       compute). Indivisible: a kernel's output is complete only when the kernel ends.</li>
 *   <li>Block scenario: a compute block, carrying its share of the next bucket's bytes.
 *       Divisible: a block is an abstraction of many kernels, so its gradients are taken to become
 *       ready evenly over its duration when a cap smaller than its bytes needs a split.</li>
 * </ul>
 *
 * @param divisible whether a cap smaller than {@code bytes} may split this unit (see above)
 */
public record GradUnit(long startNs, long readyNs, long bytes, boolean divisible) {
    public GradUnit {
        if (readyNs < startNs || bytes < 0) {
            throw new IllegalArgumentException("bad unit [" + startNs + ", " + readyNs + "] " + bytes + " bytes");
        }
    }
}
