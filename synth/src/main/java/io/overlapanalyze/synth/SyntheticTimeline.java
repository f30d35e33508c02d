package io.overlapanalyze.synth;

import java.util.List;

/**
 * The ground truth of a generated trace: every device interval and every host op time the
 * writer emits, computed once by {@link TimelinePlanner}. Tests compare an analysis of the
 * written trace against this, independently of the writer.
 *
 * <p>All times are ns on the trace's clock: the value written as {@code ts} (relative µs) times
 * 1000; add {@link #baseTimeNanoseconds()} for epoch ns. Host and device share this one clock.
 *
 * @param baseTimeNanoseconds the header's {@code baseTimeNanoseconds}
 */
public record SyntheticTimeline(Scenario scenario, long baseTimeNanoseconds, List<PlannedStep> steps) {

    public SyntheticTimeline {
        steps = List.copyOf(steps);
    }

    /** Which phase of the step launched a kernel (metrics.md §2). */
    public enum PlannedPhase { FORWARD, BACKWARD, OPTIMIZER }

    /** A half-open device interval {@code [start, end)} in ns. */
    public record Interval(long start, long end) {
        public long length() {
            return end - start;
        }

        /** This interval shifted so that {@code origin} becomes 0. */
        public Interval relativeTo(long origin) {
            return new Interval(start - origin, end - origin);
        }
    }

    /**
     * One compute kernel on the compute stream.
     *
     * @param block  index of its block within the phase (0-based; 0 for the optimizer)
     * @param launch host {@code ts} of its {@code cudaLaunchKernel}
     */
    public record PlannedKernel(PlannedPhase phase, int block, String name, long launch, long start, long end) {
        public Interval interval() {
            return new Interval(start, end);
        }
    }

    /**
     * One gradient all-reduce on the comm stream.
     *
     * @param bucket    1-based bucket number within the step (g1, g2, ...)
     * @param block     index of the backward block whose output it reduces
     * @param dataReady device end of that block: the bucket's data-ready time
     * @param enqueue   host start of {@code c10d::allreduce_} (the contract's enqueue time)
     * @param hostEnd   host end of {@code c10d::allreduce_}
     * @param launch    host {@code ts} of its {@code cudaLaunchKernel}
     */
    public record PlannedReduction(int bucket, int block, long bytes, long dataReady, long launchDelayNs,
            long enqueue, long hostEnd, long launch, long start, long end) {
        public Interval interval() {
            return new Interval(start, end);
        }

        public boolean late() {
            return launchDelayNs > 0;
        }
    }

    /** A host op that launches kernels (forward {@code aten::*}, backward autograd function, optimizer op). */
    public record KernelOp(PlannedPhase phase, String name, long start, long end, List<PlannedKernel> kernels) {
        public KernelOp {
            kernels = List.copyOf(kernels);
        }
    }

    /** A {@code user_annotation} on the main thread (data loader, zero_grad, forward, optimizer step). */
    public record PlannedAnnotation(String name, long start, long end) {
    }

    /**
     * One training step.
     *
     * @param number        the N of {@code ProfilerStep#N}
     * @param hostStart     {@code ProfilerStep#N} start
     * @param hostEnd       {@code ProfilerStep#N} end (after every launch of the step)
     * @param deviceStart   the step's device origin t0 (first kernel start)
     * @param deviceEnd     last device end of the step's work
     * @param compute       compute kernels in device order (forward, backward, optimizer)
     * @param reductions    gradient all-reduces in bucket order
     * @param annotations   main-thread user annotations, excluding {@code ProfilerStep#N}
     * @param mainOps       kernel-launching ops on the main thread (forward, optimizer)
     * @param autogradOps   kernel-launching ops on the autograd thread (backward)
     */
    public record PlannedStep(int number, long hostStart, long hostEnd, long deviceStart, long deviceEnd,
            List<PlannedKernel> compute, List<PlannedReduction> reductions, List<PlannedAnnotation> annotations,
            List<KernelOp> mainOps, List<KernelOp> autogradOps) {

        public PlannedStep {
            compute = List.copyOf(compute);
            reductions = List.copyOf(reductions);
            annotations = List.copyOf(annotations);
            mainOps = List.copyOf(mainOps);
            autogradOps = List.copyOf(autogradOps);
        }

        /** Compute intervals relative to the device origin, in device order. */
        public List<Interval> computeRelative() {
            return compute.stream().map(k -> k.interval().relativeTo(deviceStart)).toList();
        }

        /** All-reduce intervals relative to the device origin, in bucket order. */
        public List<Interval> commRelative() {
            return reductions.stream().map(r -> r.interval().relativeTo(deviceStart)).toList();
        }

        /** {@code deviceEnd - deviceStart}: the contract's stepTime. */
        public long stepTime() {
            return deviceEnd - deviceStart;
        }
    }
}
