package io.overlapanalyze.cli;

import io.overlapanalyze.report.RankReport;

import java.io.PrintWriter;
import java.util.Collection;

/**
 * Warnings on standard error, one line each naming its input, in every command and whatever
 * {@code -f} and {@code -o} say: a report written to a file or read by a script must not be the
 * only place that says the input was damaged.
 */
final class StderrWarnings {
    private StderrWarnings() {
    }

    static void ofRanks(PrintWriter err, Collection<RankReport> ranks) {
        for (RankReport r : ranks) {
            lines(err, r.namedWarnings());
        }
    }

    static void lines(PrintWriter err, Collection<String> warnings) {
        if (err == null || warnings.isEmpty()) {
            return;
        }
        for (String w : warnings) {
            err.println("overlap-analyze: warning: " + w);
        }
        err.flush();
    }
}
