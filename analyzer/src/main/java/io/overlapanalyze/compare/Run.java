package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.TotalsCalculator;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;

/**
 * One side of a comparison: the analysed ranks of a run, from traces or from a saved summary.
 *
 * @param label   what the user named it (the path typed)
 * @param origin  "traces" or "summary", and which tool wrote the summary
 * @param ranks     per-rank reports
 * @param crossRank the cross-rank analysis of these ranks (metrics.md §8) when it was run (a gate runs it
 *                  on the current side) or saved with the summary, else {@code null}
 */
public record Run(String label, String origin, List<RankReport> ranks, CrossRankReport crossRank) {
    public Run {
        ranks = List.copyOf(ranks);
    }

    /** A run whose ranks were not analysed together. */
    public Run(String label, String origin, List<RankReport> ranks) {
        this(label, origin, ranks, null);
    }

    /**
     * The cross-rank {@code ERROR}s (a collective mismatch where the group is known: the job would
     * hang or reduce the wrong data), or {@code null} when the ranks were not analysed together.
     */
    public List<Mismatch> crossRankErrors() {
        if (crossRank == null) {
            return null;
        }
        return crossRank.mismatches().stream().filter(m -> m.severity() == Mismatch.Severity.ERROR).toList();
    }

    /** Every rank's warnings, each naming its input. */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        for (RankReport r : ranks) {
            out.addAll(r.namedWarnings());
        }
        return out;
    }

    /**
     * The steps every comparison uses: those the analysis aggregates (complete steps with device
     * work; partial ones too when the options say so), over all ranks, rank by rank in step order.
     */
    public List<StepReport> aggregatedSteps(AnalysisOptions options) {
        List<StepReport> used = new ArrayList<>();
        for (RankReport r : ranks) {
            for (StepReport s : r.steps()) {
                if (TotalsCalculator.aggregated(s, options)) {
                    used.add(s);
                }
            }
        }
        return used;
    }

    /** The metric's defined values over {@link #aggregatedSteps}. */
    public Samples samples(StepMetric metric, AnalysisOptions options) {
        List<StepReport> steps = aggregatedSteps(options);
        if (metric.unit().integral()) {
            long[] v = new long[steps.size()];
            int n = 0;
            for (StepReport s : steps) {
                Number x = metric.of(s);
                if (x != null) {
                    v[n++] = x.longValue();
                }
            }
            return Samples.ofLongs(metric.unit(), java.util.Arrays.copyOf(v, n));
        }
        double[] v = new double[steps.size()];
        int n = 0;
        for (StepReport s : steps) {
            Number x = metric.of(s);
            if (x != null) {
                v[n++] = x.doubleValue();
            }
        }
        return Samples.ofDoubles(java.util.Arrays.copyOf(v, n));
    }
}
