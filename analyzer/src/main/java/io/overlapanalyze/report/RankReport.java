package io.overlapanalyze.report;

import java.util.List;

/**
 * One rank's results.
 *
 * @param rank        rank id
 * @param rankSource  where the id came from (TRACE, FILE_NAME, USER, DEFAULT)
 * @param source      input path
 * @param format      input format
 * @param worldSize   job size or {@code null}
 * @param steps       per-step results, in step order
 * @param totals      sums over the aggregated steps
 * @param notes       what the analysis could not do, or assumed ("no device activity")
 * @param warnings    what the reader skipped or repaired
 * @param crossCheck  per step, our overlap numbers next to the profiler's own (Ascend); empty when
 *                    the trace carries none
 * @param parallelism what parallelism the collectives show (DDP, FSDP, pipeline …); {@code null} in reports
 *                    written before it existed
 * @param contention  compute slowdown under overlap per kernel name and launch shape: slower
 *                    kernels most costly first, then faster ones, largest saving first (metrics.md
 *                    §9); empty when not available (see {@code notAvailable}); the net per step is
 *                    {@link #contentionNetExtraPerStepNs()}
 * @param notAvailable per section beyond DDP (and for communication as a whole), why it has nothing to show ({@code null} fields: available)
 * @param preCapture  device work launched before the capture (in no step); {@code null} when the
 *                    rank has no device activity, or in reports written before it existed
 * @param findings    what to change on this rank, ranked by what it could save (metrics.md §13);
 *                    empty in reports written before findings existed
 * @param largestGroupSize the most ranks any process group of its collectives has, as the trace states
 *                    it (member list or group size); {@code null} when no collective says. More than the
 *                    ranks read means its waiting may be for ranks outside the input (metrics.md §12)
 * @param deviceModel the model of the device(s) the rank ran on ("NVIDIA A100-SXM4-80GB"; several joined
 *                    sorted with " + "), as the trace lists it; {@code null} when the trace does not say, or
 *                    in reports written before it existed (metrics.md §10: compared between runs)
 */
public record RankReport(int rank, String rankSource, String source, String format, Integer worldSize,
                         List<StepReport> steps, Totals totals, List<String> notes, List<String> warnings,
                         List<CrossCheckStep> crossCheck, Parallelism parallelism,
                         List<ContentionReport> contention, NotAvailable notAvailable, PreCapture preCapture,
                         List<Finding> findings, Integer largestGroupSize, String deviceModel)
                                 implements java.io.Serializable {
    public RankReport {
        steps = List.copyOf(steps);
        notes = List.copyOf(notes);
        warnings = List.copyOf(warnings);
        crossCheck = crossCheck == null ? List.of() : List.copyOf(crossCheck);
        contention = contention == null ? List.of() : List.copyOf(contention);
        findings = findings == null ? List.of() : List.copyOf(findings);
    }

    /** This report with {@code f} as its findings; every other component is this report's. */
    public RankReport withFindings(List<Finding> f) {
        return new RankReport(rank, rankSource, source, format, worldSize, steps, totals, notes, warnings, crossCheck,
                parallelism, contention, notAvailable, preCapture, f, largestGroupSize, deviceModel);
    }

    /** This report with {@code s} as its steps; every other component is this report's. */
    public RankReport withSteps(List<StepReport> s) {
        return new RankReport(rank, rankSource, source, format, worldSize, s, totals, notes, warnings, crossCheck,
                parallelism, contention, notAvailable, preCapture, findings, largestGroupSize, deviceModel);
    }

    /**
     * What contention costs this rank per step, net (metrics.md §9): the slower kernels' extra time
     * minus the faster kernels' saving, each at its median difference (the sum of the rows'
     * {@code extraPerStepNs}), in ns; {@code null} when nothing was measured. A method, not a JSON
     * field: the rows hold every term.
     */
    public Long contentionNetExtraPerStepNs() {
        return ContentionReport.netExtraPerStepNs(contention);
    }

    /**
     * The rank's warnings as lines that name the input ("trace.json: truncated: …"), for standard
     * error and for the warnings of a diff or gate.
     */
    public List<String> namedWarnings() {
        return warnings.stream().map(w -> source != null && w.contains(source) ? w : source + ": " + w).toList();
    }
}
