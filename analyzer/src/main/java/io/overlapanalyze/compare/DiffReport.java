package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.formats.ToolFile;
import io.overlapanalyze.report.TailKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code overlap-analyze diff A B}: every {@link Metric} of run A against run B, and the gradient
 * bucket structure of both. Serialised as it is for {@code --format json}: field names are a
 * contract, versioned by {@code schemaVersion} (additive fields do not bump it).
 *
 * @param kind          always {@link ToolFile#DIFF}'s kind, so a script can tell the JSON documents of this tool apart
 * @param schemaVersion layout version of this document
 * @param tool          tool name and version that wrote it
 * @param alpha         significance level of the verdicts
 * @param minSamples    samples needed on each side for a verdict
 * @param a             run A
 * @param b             run B
 * @param metrics       one entry per metric, in {@link Metric} order, then one per user annotation name
 *                      both runs have ({@link AnnotationMetric}), by name
 * @param structure     the bucket layout of each side and what changed
 * @param warnings      what the readers of either side skipped or repaired ("A: trace.json: truncated…"), and
 *                      that the runs are not comparable when they are not
 * @param comparability whether the runs can be compared at all (metrics.md §10), with the differences
 */
public record DiffReport(String kind, int schemaVersion, String tool, double alpha, int minSamples, RunSide a,
                         RunSide b, List<MetricChange> metrics, Structure structure, List<String> warnings,
                         Comparability comparability) {
    public static final int SCHEMA_VERSION = 1;

    public DiffReport {
        metrics = List.copyOf(metrics);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** This report with other warnings (every other component carried over). */
    public DiffReport withWarnings(List<String> w) {
        return new DiffReport(kind, schemaVersion, tool, alpha, minSamples, a, b, metrics, structure, w,
                comparability);
    }

    /**
     * @param a                  layout of run A
     * @param b                  layout of run B
     * @param layoutChanged      the most common bucket layouts differ (count or sizes)
     * @param attributionChanged the most frequent tail attribution differs
     */
    public record Structure(BucketLayout a, BucketLayout b, boolean layoutChanged, boolean attributionChanged) {
    }

    /** The metric's entry, or {@code null}. */
    public MetricChange metric(Metric m) {
        for (MetricChange c : metrics) {
            if (c.metric().equals(m.key())) {
                return c;
            }
        }
        return null;
    }

    /** Compares run A with run B. */
    public static DiffReport compare(Run a, Run b, AnalysisOptions options, double alpha, String tool) {
        List<MetricChange> changes = new ArrayList<>();
        for (Metric m : Metric.values()) {
            var sa = a.samples(m, options);
            var sb = b.samples(m, options);
            if (m.onlyWhenPresent() && sa.size() == 0 && sb.size() == 0) {
                continue; // e.g. no allocator events on either side: the row would only say "n/a"
            }
            changes.add(MetricChange.of(m, sa, sb, alpha));
        }
        // Per user annotation name both runs have: its exposed communication (micro-batch overlap).
        for (AnnotationMetric m : AnnotationMetric.common(a, b, options)) {
            changes.add(MetricChange.of(m, a.samples(m, options), b.samples(m, options), alpha));
        }
        BucketLayout la = BucketLayout.of(a, options);
        BucketLayout lb = BucketLayout.of(b, options);
        boolean layoutChanged = !Objects.equals(la.layout(), lb.layout());
        TailKind ka = la.tailKind();
        TailKind kb = lb.tailKind();
        boolean attributionChanged = ka != null && kb != null && ka != kb;
        Comparability comparability = Comparability.of(a, b, options);
        List<String> warnings = sideWarnings("A", a, "B", b);
        if (!comparability.comparable()) {
            warnings.add(comparability.warning("A and B"));
        }
        return new DiffReport(ToolFile.DIFF.kind(), SCHEMA_VERSION, tool, alpha, Samples.MIN_FOR_TEST, RunSide.of(a, options),
                RunSide.of(b, options), changes, new Structure(la, lb, layoutChanged, attributionChanged),
                warnings, comparability);
    }

    /** Both runs' warnings, each line prefixed with the side it comes from. */
    static List<String> sideWarnings(String nameA, Run a, String nameB, Run b) {
        List<String> out = new ArrayList<>();
        a.warnings().forEach(w -> out.add(nameA + ": " + w));
        b.warnings().forEach(w -> out.add(nameB + ": " + w));
        return out;
    }
}
