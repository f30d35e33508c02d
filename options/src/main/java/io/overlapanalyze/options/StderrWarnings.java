package io.overlapanalyze.options;

import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.render.escape.TerminalEscape;
import io.overlapanalyze.report.RankReport;

import java.io.PrintWriter;
import java.util.Collection;

/**
 * Warnings on standard error, one line each naming its input, in every command and whatever
 * {@code -f} and {@code -o} say: a report written to a file or read by a script must not be the
 * only place that says the input was damaged. A warning quotes values from a trace (names of
 * steps, groups, kernels, files): every line goes through the terminal escaper, so none can drive
 * the terminal or split into lines of its own.
 */
public final class StderrWarnings {
    private StderrWarnings() {
    }

    /**
     * Every rank's warnings, each distinct line once: the ranks of one file (the processes of an
     * Nsight export) share its file-level warnings, which were printed once per rank (issue 29).
     */
    public static void ofRanks(PrintWriter err, Collection<RankReport> ranks) {
        java.util.Set<String> distinct = new java.util.LinkedHashSet<>();
        for (RankReport r : ranks) {
            distinct.addAll(r.namedWarnings());
        }
        lines(err, distinct);
    }

    /**
     * What the pipeline has to say, in reading order: files skipped as no trace, unreadable
     * inputs (the others were analysed), then every rank's warnings.
     */
    public static void ofPipeline(PrintWriter err, io.overlapanalyze.pipeline.PipelineResult result) {
        notes(err, result.skipped());
        lines(err, result.unreadableLines().stream().map(Messages::printable).toList());
        ofRanks(err, result.report().ranks());
    }

    /** Lines that are no warning about the data read (a file left out as no trace). */
    public static void notes(PrintWriter err, Collection<String> notes) {
        if (err == null || notes.isEmpty()) {
            return;
        }
        for (String n : notes) {
            err.println("overlap-analyze: " + TerminalEscape.text(Messages.printable(n)));
        }
        err.flush();
    }

    public static void lines(PrintWriter err, Collection<String> warnings) {
        if (err == null || warnings.isEmpty()) {
            return;
        }
        for (String w : warnings) {
            err.println("overlap-analyze: warning: " + TerminalEscape.text(w));
        }
        err.flush();
    }
}
