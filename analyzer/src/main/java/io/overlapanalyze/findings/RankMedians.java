package io.overlapanalyze.findings;

import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

/**
 * A rank's per-step medians over the steps its findings use: enough to compare a late rank with the
 * others (metrics.md §13: a straggler finding says why the late rank is late from its own
 * breakdown) and to rank the job's findings by the slowest rank's step. Fields are {@code null}
 * when no step has the figure.
 *
 * @param periodNs     median step period
 * @param computeNs    median compute part of the breakdown
 * @param hostIdleNs   median idle waiting for the host
 * @param launchedIdleNs median idle after the work was issued
 * @param launchLateNs median late launch of the first gradient collective
 */
public record RankMedians(Long periodNs, Long computeNs, Long hostIdleNs, Long launchedIdleNs, Long launchLateNs)
        implements java.io.Serializable {

    public static RankMedians of(RankReport report) {
        StepFigures f = StepFigures.of(report.steps());
        if (f.isEmpty()) {
            return new RankMedians(null, null, null, null, null);
        }
        boolean breakdown = f.steps().stream().allMatch(s -> s.breakdown() != null && s.idle() != null);
        boolean launch = f.steps().stream().allMatch(s -> s.launchLateNs() != null);
        return new RankMedians(f.median(StepReport::stepPeriodNs),
                breakdown ? f.median(s -> s.breakdown().computeNs()) : null,
                breakdown ? f.median(s -> s.idle().hostNs()) : null,
                breakdown ? f.median(s -> s.idle().launchedNs()) : null,
                launch ? f.median(StepReport::launchLateNs) : null);
    }
}
