package io.overlapanalyze.spark;

import io.overlapanalyze.crossrank.digest.RankDigest;
import io.overlapanalyze.crossrank.digest.SharedValues;
import io.overlapanalyze.findings.RankMedians;
import io.overlapanalyze.model.FlightRecorderDump;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.report.RankReport;

import java.io.Serializable;
import java.util.List;

/**
 * What a task sends back for one input: each rank it held, or why it could not be read, or that
 * it is no trace (a walked file: left out with a line, as the CLI does).
 *
 * @param file      the input, as the user knows it
 * @param ranks     its ranks (a file may hold several, or none)
 * @param unreadable why it could not be read (one line naming it), or {@code null}
 * @param skipped   why it was left out as no trace (one line naming it), or {@code null}
 * @param stepNames every step name seen, when steps were selected (to refuse a selection no rank has)
 */
record RankOutcome(RankFile file, List<Rank> ranks, String unreadable, String skipped, List<String> stepNames)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    RankOutcome {
        ranks = List.copyOf(ranks);
        stepNames = List.copyOf(stepNames);
    }

    static RankOutcome unreadable(RankFile file, String message) {
        return new RankOutcome(file, List.of(), message, null, List.of());
    }

    static RankOutcome skipped(RankFile file, String why) {
        return new RankOutcome(file, List.of(), null, why, List.of());
    }

    /**
     * One rank: its digest for the cross-rank analysis, and its full report either here or written
     * by the task to {@code reportPart} (a big job: the driver never holds every full report),
     * and its warnings, each naming the input (they go to standard error on the driver); for an
     * HTML page, its timelines ({@code null} without one). A second read for the page sends its
     * timelines alone. Its medians let the driver judge every rank against the others (findings)
     * without its full report.
     */
    record Rank(RankDigest digest, RankReport report, String reportPart, List<String> warnings,
                PrecomputedTimelines timelines, RankMedians medians, FlightRecorder flightRecorder)
            implements Serializable {
        private static final long serialVersionUID = 2L;

        /**
         * The digest as the driver's cross-rank input, with the dump's content when the rank is a dump; its
         * names and process groups taken from the job's {@code shared}.
         */
        RankInput input(SharedValues shared) {
            RankInput in = digest.toInput(shared);
            if (flightRecorder == null) {
                return in;
            }
            return new RankInput(in.trace().withGroups(flightRecorder.groups())
                    .withFlightRecorder(flightRecorder.dump()), in.report());
        }
    }

    /**
     * What a Flight Recorder dump adds to a rank, which the digest (collectives and device times only)
     * leaves out and the hang analysis reads on the driver: the ring buffer, the groups' progress and
     * the groups the dump declares (a dump is small: its buffer holds a few thousand entries at most).
     */
    record FlightRecorder(FlightRecorderDump dump, List<ProcessGroup> groups) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** The dump part of {@code trace}, or {@code null} when it is no dump. */
        static FlightRecorder of(RankTrace trace) {
            return trace.flightRecorder() == null ? null : new FlightRecorder(trace.flightRecorder(), trace.groups());
        }
    }
}
