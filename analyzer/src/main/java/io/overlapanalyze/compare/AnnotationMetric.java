package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.report.AnnotationReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The exposed communication of one user annotation name in each step (micro-batch overlap): a
 * step without that annotation gives no sample. Key {@code annotationExposedComm[NAME]}, label
 * "exposed comm [NAME]". Compared only for names both runs have, so that a run without
 * annotations diffs and gates as before.
 *
 * @param annotation the annotation's name as the report writes it
 */
public record AnnotationMetric(String annotation) implements StepMetric {
    static final String PREFIX = "annotationExposedComm[";

    @Override
    public String key() {
        return PREFIX + annotation + "]";
    }

    @Override
    public String label() {
        return "exposed comm [" + annotation + "]";
    }

    @Override
    public MetricUnit unit() {
        return MetricUnit.NS;
    }

    @Override
    public Number of(StepReport step) {
        for (AnnotationReport a : step.annotations()) {
            if (a.name().equals(annotation)) {
                return a.exposedCommNs();
            }
        }
        return null;
    }

    @Override
    public boolean onlyWhenPresent() {
        return true;
    }

    /** The metric a key names, or {@code null} when it is not a per-annotation key. */
    static AnnotationMetric parse(String key) {
        if (key == null || !key.startsWith(PREFIX) || !key.endsWith("]") || key.length() <= PREFIX.length() + 1) {
            return null;
        }
        return new AnnotationMetric(key.substring(PREFIX.length(), key.length() - 1));
    }

    /** One metric per annotation name that both runs have in their aggregated steps, by name. */
    public static List<AnnotationMetric> common(Run a, Run b, AnalysisOptions options) {
        Set<String> inA = names(a, options);
        inA.retainAll(names(b, options));
        List<AnnotationMetric> out = new ArrayList<>();
        for (String n : inA) {
            out.add(new AnnotationMetric(n));
        }
        return out;
    }

    /** The annotation names of the run's aggregated steps, sorted. */
    public static Set<String> names(Run run, AnalysisOptions options) {
        Set<String> out = new TreeSet<>();
        for (StepReport s : run.aggregatedSteps(options)) {
            for (AnnotationReport a : s.annotations()) {
                out.add(a.name());
            }
        }
        return out;
    }
}
