package io.overlapanalyze.pipeline;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.crossrank.StepWaits;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.RankReport;

import java.util.ArrayList;
import java.util.List;

/**
 * What the pipeline made of its inputs.
 *
 * @param report     the analysis: every readable rank (sorted by id, then source) and, when asked
 *                   for and there are several inputs, the cross-rank analysis
 * @param inputs     every rank read, with its trace and report, in input order (pictures need the
 *                   traces: the report holds numbers only)
 * @param unreadable inputs that could not be read, one line each naming the file; the others were analysed
 * @param skipped    files found in directories that are not traces by content, one line each
 *                   naming the file; never read as traces
 * @param stepWaits  the cross-rank evidence for each rank's transfer/waiting split, already applied to
 *                   the report's ranks; never {@code null}
 * @param findings   how the job's ranks were judged (metrics.md §13): a launcher that writes a rank's
 *                   full report from elsewhere (Spark's part files) revises it with this (the
 *                   cross-rank split applied, then its findings), and ranks the job's findings with
 *                   it; {@code null} for a result built without them
 */
public record PipelineResult(AnalysisReport report, List<RankInput> inputs, List<InputProblem> unreadable,
                             List<String> skipped, StepWaits stepWaits, Findings findings) {
    public PipelineResult {
        stepWaits = stepWaits == null ? StepWaits.none() : stepWaits;
        inputs = List.copyOf(inputs);
        unreadable = List.copyOf(unreadable);
        skipped = List.copyOf(skipped);
    }

    /** One line per unreadable input: its message (which names the file) and that the others were analysed. */
    public List<String> unreadableLines() {
        List<String> out = new ArrayList<>();
        for (InputProblem p : unreadable) {
            out.add(p.message() + " (skipped; the other inputs are analysed)");
        }
        return out;
    }

    /** Every warning: each rank's warnings (naming its input), then the unreadable inputs. */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        for (RankReport r : report.ranks()) {
            out.addAll(r.namedWarnings());
        }
        out.addAll(unreadableLines());
        return out;
    }
}
