package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.TotalsCalculator;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;

/**
 * What a comparison says about one of its inputs.
 *
 * @param label        the path as the user typed it
 * @param origin       "traces", or "summary written by TOOL"
 * @param ranks        ranks in the run
 * @param steps        aggregated (rank, step) pairs: the samples behind every median
 * @param wholeProfile true when the run has no complete step and is compared as whole profiles (each
 *                     rank's capture as one partial step); its per-rank figures are in {@code profiles}
 * @param profiles     per rank, for a whole-profile comparison: the capture's own figures and the work
 *                     launched before it (in no step), so totals such as other tools' can be matched;
 *                     empty otherwise
 */
public record RunSide(String label, String origin, int ranks, int steps, boolean wholeProfile,
                      List<RankProfile> profiles) {
    public RunSide {
        profiles = profiles == null ? List.of() : List.copyOf(profiles);
    }

    /**
     * One rank's whole profile.
     *
     * @param rank              rank id
     * @param exposedCommNs     exposed communication over its steps (the capture)
     * @param commBusyNs        communication busy time over its steps
     * @param preCaptureCommNs  communication busy before the capture began (launched earlier), or
     *                          {@code null} when the report does not say
     * @param preCaptureBusyNs  device busy time before the capture began, or {@code null}
     */
    public record RankProfile(int rank, long exposedCommNs, long commBusyNs, Long preCaptureCommNs,
                              Long preCaptureBusyNs) {
    }

    public static RunSide of(Run run, AnalysisOptions options) {
        boolean whole = options.includePartial() && run.aggregatedSteps(options.withIncludePartial(false)).isEmpty()
                && !run.aggregatedSteps(options).isEmpty();
        List<RankProfile> profiles = new ArrayList<>();
        if (whole) {
            for (RankReport r : run.ranks()) {
                long exposed = 0;
                long comm = 0;
                for (StepReport s : r.steps()) {
                    if (TotalsCalculator.aggregated(s, options)) {
                        exposed += s.exposedCommNs();
                        comm += s.commBusyNs();
                    }
                }
                profiles.add(new RankProfile(r.rank(), exposed, comm,
                        r.preCapture() == null ? null : r.preCapture().commBusyNs(),
                        r.preCapture() == null ? null : r.preCapture().busyNs()));
            }
        }
        return new RunSide(run.label(), run.origin(), run.ranks().size(), run.aggregatedSteps(options).size(), whole,
                profiles);
    }
}
