package io.overlapanalyze.compare;

import io.overlapanalyze.report.StepReport;

/**
 * A per-step value a diff compares and a gate can check: one of the fixed {@link Metric}s, or one
 * made for a name the runs carry ({@link AnnotationMetric}, per user annotation). One sample is
 * one (rank, step); a step that does not define the value gives no sample.
 */
public interface StepMetric {
    /** JSON name and gate check name: a contract. */
    String key();

    /** Words for people ("exposed comm"). */
    String label();

    MetricUnit unit();

    /** The step's value ({@code Long} for integral units, {@code Double} for ratios), or {@code null}. */
    Number of(StepReport step);

    /** True for metrics a diff lists only when at least one side has samples of them. */
    boolean onlyWhenPresent();

    /** The metric with this key (a fixed one or a per-annotation one), or {@code null}. */
    static StepMetric byKey(String key) {
        Metric m = Metric.byKey(key);
        return m != null ? m : AnnotationMetric.parse(key);
    }
}
