package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;

/** One rank's trace and its single-rank report, the two things the cross-rank analysis reads. */
public record RankInput(RankTrace trace, RankReport report) {
    public int rank() {
        return trace.rank();
    }
}
