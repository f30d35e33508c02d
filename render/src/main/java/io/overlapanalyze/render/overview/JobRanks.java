package io.overlapanalyze.render.overview;

import io.overlapanalyze.report.RankReport;

/**
 * How a human layout reads a job's ranks: the one way to the rank a report holds, whether the report
 * holds it whole or a stand-in for a full report kept elsewhere (a big job's spill). A layout walks
 * the report's rank records as before and asks here for what it reads of them: every rank's
 * {@link RankSummary}, and the full report of the ranks it shows in detail, one at a time.
 */
public interface JobRanks {
    /** What the layouts read of every rank, for the rank record the report holds. */
    RankSummary summary(RankReport held);

    /**
     * The rank's full report, revised across ranks, with its findings, for the rank record the report
     * holds: that record itself when it is the full report. Ask for it when it is shown, and be done
     * with it before asking for the next: it may be read from a file, and its pictures' index holds
     * only the last one read.
     */
    RankReport full(RankReport held);

    /** A report holding every rank's full report: each rank is its own full report. */
    static JobRanks inReport() {
        return InReport.INSTANCE;
    }

    /** The ranks of a report that holds them whole. */
    enum InReport implements JobRanks {
        INSTANCE;

        @Override
        public RankSummary summary(RankReport held) {
            return RankSummary.of(held);
        }

        @Override
        public RankReport full(RankReport held) {
            return held;
        }
    }
}
