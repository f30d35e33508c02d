package io.overlapanalyze.whatif;

import java.util.List;

/**
 * The what-if answer. Serialised as JSON by the CLI: the field names ({@code measured},
 * {@code model}, {@code options[]}, {@code recommended}) are a contract for scripts.
 *
 * @param source         the trace or scenario it came from
 * @param input          {@code trace} or {@code scenario}
 * @param steps          names of the steps replayed (predictions are medians over them)
 * @param measured       the run as measured (trace: medians of the analysis; scenario: the
 *                       scenario replayed with its own comm times)
 * @param model          the cost model used for the gradient reductions
 * @param models         every fitted model (per collective type and group size)
 * @param options        predictions, the measured buckets first
 * @param recommended    label of the recommended option
 * @param dominantEffect what limits the measured bucketing: {@code PER_MESSAGE_LATENCY} (buckets
 *                       too small), {@code LATE_FIRST_BUCKET} (buckets too big), or {@code NONE}
 * @param reason         the recommendation in words
 * @param bestTimeline   the recommended option's replayed step (first replayed step)
 * @param assumptions    what the prediction assumes, one line each
 * @param warnings       extrapolations and poor fits, one line each
 */
public record WhatIfReport(int schemaVersion, String tool, String source, String input, List<String> steps,
                           Measured measured, CostModel model, List<CostModel> models, List<Option> options,
                           String recommended, String dominantEffect, String reason, Timeline bestTimeline,
                           List<String> assumptions, List<String> warnings) {
    public static final int SCHEMA_VERSION = 1;

    public WhatIfReport {
        steps = List.copyOf(steps);
        models = List.copyOf(models);
        options = List.copyOf(options);
        assumptions = List.copyOf(assumptions);
        warnings = List.copyOf(warnings);
    }

    /** The measured run (medians over the replayed steps). */
    public record Measured(long stepTimeNs, long tailNs, long exposedCommNs, int buckets, long medianBucketBytes) {
    }

    /**
     * One predicted option: bucketing × interconnect, replayed on the ideal two-engine timeline.
     *
     * @param bucketCapBytes     the cap, or {@code null} for the measured buckets
     * @param firstBucketReadyNs when the first bucket's data is complete (from the step's device start)
     * @param extrapolated       some bucket lies far outside the sizes the model was fitted on
     */
    public record Option(String label, Long bucketCapBytes, double bandwidthScale, double latencyScale,
                         long stepTimeNs, long tailNs, long exposedCommNs, long serialNs, long commBusyNs,
                         int buckets, long largestBucketBytes, long firstBucketReadyNs, boolean extrapolated) {
    }

    /** A replayed step: compute busy runs and the reductions. */
    public record Timeline(String label, String step, long stepTimeNs, long tailNs, List<Span> compute,
                           List<TwoEngineReplay.ReplayedBucket> comm) {
        public Timeline {
            compute = List.copyOf(compute);
            comm = List.copyOf(comm);
        }
    }
}
