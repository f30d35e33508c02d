package io.overlapanalyze.compare;

import io.overlapanalyze.report.BucketReport;
import io.overlapanalyze.report.StepReport;

import java.util.function.Function;

/**
 * The per-step metrics a diff compares (metrics.md §10), each read from one {@link StepReport}.
 * One sample is one (rank, step); a metric a step does not define (tail of an inference step)
 * gives no sample.
 *
 * <p>{@link #key()} is the JSON name and the gate's check name: a contract, do not rename.
 */
public enum Metric implements StepMetric {
    STEP_TIME("stepTime", "step time", MetricUnit.NS, s -> s.stepTimeNs()),
    TAIL("tail", "tail", MetricUnit.NS, StepReport::tailNs),
    EXPOSED_COMM("exposedComm", "exposed comm", MetricUnit.NS, s -> s.exposedCommNs()),
    EXPOSED_GRAD_COMM("exposedGradComm", "exposed gradient comm", MetricUnit.NS, s -> s.exposedGradCommNs()),
    OVERLAP("overlapRatio", "overlap", MetricUnit.RATIO, StepReport::overlapRatio),
    COMM_BUSY("commBusy", "comm busy", MetricUnit.NS, s -> s.commBusyNs()),
    COMPUTE_BUSY("computeBusy", "compute busy", MetricUnit.NS, s -> s.computeBusyNs()),
    START_DELAY("startDelay", "start delay", MetricUnit.NS, StepReport::startDelayNs),
    GRAD_COLLECTIVES("gradCollectives", "gradient collectives", MetricUnit.COUNT,
            s -> (long) s.gradCollectives()),
    MEAN_GRAD_BUCKET_BYTES("meanGradBucketBytes", "mean gradient bucket", MetricUnit.BYTES,
            Metric::meanBucketBytes),
    /**
     * Bigger buckets and prefetch keep more buffers alive. Listed only when a side has samples
     * (allocator events), like {@link #EXPOSED_PREFETCH} (all-gathers): a DDP trace without memory
     * profiling lists neither.
     */
    PEAK_ALLOCATED("peakAllocated", "peak allocated", MetricUnit.BYTES, StepReport::peakAllocatedBytes),
    /** Compute idle waiting for FSDP / ZeRO all-gathers; no sample in steps without them. */
    EXPOSED_PREFETCH("exposedPrefetch", "exposed prefetch", MetricUnit.NS, StepReport::exposedPrefetchNs),
    /**
     * Time in fused compute-communication kernels (MC², fused GEMM+collective); no sample in steps
     * without them, so runs without fused kernels diff as before.
     */
    FUSED_BUSY("fusedBusy", "fused busy", MetricUnit.NS, s -> s.hasFused() ? s.fusedBusyNs() : null);

    private final String key;
    private final String label;
    private final MetricUnit unit;
    private final Function<StepReport, ? extends Number> value;

    Metric(String key, String label, MetricUnit unit, Function<StepReport, ? extends Number> value) {
        this.key = key;
        this.label = label;
        this.unit = unit;
        this.value = value;
    }

    /** JSON name and gate check name ("tail", "exposedComm"). */
    @Override
    public String key() {
        return key;
    }

    /** True for the metrics a diff lists only when at least one side has samples of them. */
    @Override
    public boolean onlyWhenPresent() {
        return this == PEAK_ALLOCATED || this == EXPOSED_PREFETCH || this == FUSED_BUSY;
    }

    /** Words for people ("exposed comm"). */
    @Override
    public String label() {
        return label;
    }

    @Override
    public MetricUnit unit() {
        return unit;
    }

    /** The step's value: a {@code Long} for integral units, a {@code Double} for ratios; {@code null} when undefined. */
    @Override
    public Number of(StepReport step) {
        return value.apply(step);
    }

    /** The metric with this key, or {@code null}. */
    public static Metric byKey(String key) {
        for (Metric m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        return null;
    }

    /**
     * Mean size of the step's gradient buckets whose size is known (floor of the exact mean);
     * {@code null} when no bucket has a known size, including reports written before buckets
     * were listed.
     */
    static Long meanBucketBytes(StepReport step) {
        long sum = 0;
        int n = 0;
        for (BucketReport b : step.gradBuckets()) {
            if (b.bytes() != null) {
                sum += b.bytes();
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }
}
