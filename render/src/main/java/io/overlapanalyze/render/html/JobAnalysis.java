package io.overlapanalyze.render.html;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.RankSpill;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.reportfile.ReportJson;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The analyse command's job, on the job path ({@link AnalysisPipeline#analyseJob}): each rank read,
 * analysed, digested for the cross-rank step, reduced to its report and what the pictures asked for
 * may draw ({@link JobPictures}), and its model dropped. With {@code spill} (a big job whose report
 * is JSON) each rank's full report goes to a {@link RankSpill} at once and the job holds a stand-in;
 * the JSON renderer ({@link #jsonRenderer()}) copies the full reports back in, one at a time. Memory
 * then follows the ranks read at once, not the job. Close it to delete the spilled reports.
 *
 * @param result   the report (spilled ranks hold their stand-ins) and the ranks (digest traces)
 * @param pictures what the pictures draw from; empty without pictures
 * @param spilled  the spill, or {@code null}
 * @param parts    the spilled ranks' files, by the report's rank records (identity)
 */
public record JobAnalysis(PipelineResult result, TimelineIndex pictures, RankSpill spilled,
                          Map<RankReport, Path> parts) implements AutoCloseable {
    /** A job of more inputs than this spills its ranks' reports when only JSON is written. */
    public static final int SPILL_INPUTS = 64;

    /** What the job keeps of a rank besides the report it holds. */
    private record Kept(PrecomputedTimelines timelines, Path spilledTo) {
    }

    /**
     * Reads and analyses the job.
     *
     * @param spill    put each rank's full report in a temporary directory (for a JSON report only:
     *                 the other renderers read every rank's whole report)
     * @param progress where a long read shows its progress (a terminal only), or {@code null}
     */
    public static JobAnalysis run(PipelineInput in, TraceFormats.Expanded expanded, JobPictures pictures,
                                  boolean spill, PrintWriter progress) {
        RankSpill spilled = spill ? RankSpill.create() : null;
        try {
            AnalysisPipeline.Job<Kept> job = AnalysisPipeline.analyseJob(expanded, in, progress, full -> {
                PrecomputedTimelines t = pictures.any() ? pictures.keep(full) : null;
                if (spilled == null) {
                    return new AnalysisPipeline.Reduced<>(full.report(), new Kept(t, null));
                }
                Path file = spilled.write(full.report());
                return AnalysisPipeline.Reduced.reportElsewhere(new Kept(t, file));
            });
            PipelineResult result = job.result();
            List<RankReport> ranks = JobPictures.reportsOf(result.inputs());
            List<PrecomputedTimelines> timelines = new ArrayList<>(ranks.size());
            Map<RankReport, Path> parts = new IdentityHashMap<>();
            for (int i = 0; i < ranks.size(); i++) {
                Kept k = job.kept().get(i);
                timelines.add(k.timelines());
                if (k.spilledTo() != null) {
                    parts.put(ranks.get(i), k.spilledTo());
                }
            }
            TimelineIndex index = JobPictures.index(ranks, timelines);
            if (pictures.pageInputs() > 0) {
                JobPictures.completeForPage(result.report(), index, ranks, timelines, JobPictures.readingAgain(
                        result.inputs(), source -> AnalysisPipeline.readAgain(in, Path.of(source))));
            }
            return new JobAnalysis(result, index, spilled, parts);
        } catch (RuntimeException | Error e) {
            if (spilled != null) {
                spilled.close();
            }
            throw e;
        }
    }

    /** Whether any rank's report was spilled. */
    public boolean spills() {
        return !parts.isEmpty();
    }

    /** The line standard error shows when the ranks' reports were spilled, or {@code null}. */
    public String spillNote() {
        return spills() ? "a big job: the " + parts.size() + " ranks' reports were kept in a temporary directory, "
                + "not in memory, until written" : null;
    }

    /** The JSON report's renderer: the spilled ranks' reports copied in, or the plain JSON renderer's bytes. */
    public ReportRenderer jsonRenderer() {
        java.util.function.Function<Path, RankReport> read = spilled == null ? p -> null : spilled::read;
        return new ReportRenderer() {
            @Override
            public void render(AnalysisReport report, java.io.Writer out) throws java.io.IOException {
                ReportJson.write(out, report, parts, result.findings(), false, read);
            }

            @Override
            public void render(AnalysisReport report, java.io.OutputStream out) throws java.io.IOException {
                ReportJson.write(out, report, parts, result.findings(), false, read);
            }
        };
    }

    @Override
    public void close() {
        if (spilled != null) {
            spilled.close();
        }
    }
}
