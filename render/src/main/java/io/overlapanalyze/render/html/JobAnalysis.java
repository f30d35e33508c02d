package io.overlapanalyze.render.html;

import io.overlapanalyze.formats.TraceFormats;
import io.overlapanalyze.pipeline.AnalysisPipeline;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.PipelineResult;
import io.overlapanalyze.render.RankSpill;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.render.SpilledRanks;
import io.overlapanalyze.render.overview.JobRanks;
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
 * may draw ({@link JobPictures}), and its model dropped. With {@code spill} (a big job) each rank's
 * full report goes to a {@link RankSpill} at once and the job holds a stand-in; the JSON renderer
 * ({@link #jsonRenderer()}) copies the full reports back in, one at a time, and the text and markdown
 * layouts read them through {@link #ranks()}: every rank's summary, made in one pass over the spill,
 * and the full report of the ranks they show in detail, read back one at a time. Memory then follows
 * the ranks read at once, not the job. Close it to delete the spilled reports.
 */
public final class JobAnalysis implements AutoCloseable {
    /** A job of more inputs than this spills its ranks' reports (unless an HTML page is drawn). */
    public static final int SPILL_INPUTS = 64;

    private final PipelineResult result;
    private final TimelineIndex pictures;
    private final RankSpill spilled;
    private final Map<RankReport, Path> parts;
    private final Map<RankReport, PrecomputedTimelines> timelines;
    /** Made on first use: a JSON report never needs them. */
    private SpilledRanks summarised;

    /**
     * @param result    the report (spilled ranks hold their stand-ins) and the ranks (digest traces)
     * @param pictures  what the pictures draw from; empty without pictures
     * @param spilled   the spill, or {@code null}
     * @param parts     the spilled ranks' files, by the report's rank records (identity)
     * @param timelines what was kept for the pictures of each spilled rank, by its record (identity)
     */
    private JobAnalysis(PipelineResult result, TimelineIndex pictures, RankSpill spilled, Map<RankReport, Path> parts,
                        Map<RankReport, PrecomputedTimelines> timelines) {
        this.result = result;
        this.pictures = pictures;
        this.spilled = spilled;
        this.parts = parts;
        this.timelines = timelines;
    }

    /** What the job keeps of a rank besides the report it holds. */
    private record Kept(PrecomputedTimelines timelines, Path spilledTo) {
    }

    /**
     * Reads and analyses the job.
     *
     * @param spill    put each rank's full report in a temporary directory (not for an HTML page: it
     *                 reads every rank's whole report)
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
            Map<RankReport, PrecomputedTimelines> spilledTimelines = new IdentityHashMap<>();
            for (int i = 0; i < ranks.size(); i++) {
                Kept k = job.kept().get(i);
                timelines.add(k.timelines());
                if (k.spilledTo() != null) {
                    parts.put(ranks.get(i), k.spilledTo());
                    if (k.timelines() != null) {
                        spilledTimelines.put(ranks.get(i), k.timelines());
                    }
                }
            }
            TimelineIndex index = JobPictures.index(ranks, timelines);
            if (pictures.pageInputs() > 0) {
                JobPictures.completeForPage(result.report(), index, ranks, timelines, JobPictures.readingAgain(
                        result.inputs(), source -> AnalysisPipeline.readAgain(in, Path.of(source))));
            }
            return new JobAnalysis(result, index, spilled, parts, spilledTimelines);
        } catch (RuntimeException | Error e) {
            if (spilled != null) {
                spilled.close();
            }
            throw e;
        }
    }

    /** The report (spilled ranks hold their stand-ins) and the ranks (digest traces). */
    public PipelineResult result() {
        return result;
    }

    /** What the pictures draw from; empty without pictures. */
    public TimelineIndex pictures() {
        return pictures;
    }

    /** The spill, or {@code null}. */
    public RankSpill spilled() {
        return spilled;
    }

    /** The spilled ranks' files, by the report's rank records (identity). */
    public Map<RankReport, Path> parts() {
        return parts;
    }

    /**
     * How the text and markdown layouts read the ranks of {@link #report()}: as the report holds them,
     * or, for a spilled job, every rank's summary (made here in one pass over the spill, on first
     * use) and a detailed rank's full report read back.
     */
    public JobRanks ranks() {
        return spills() ? summarised() : JobRanks.inReport();
    }

    /**
     * The report the text and markdown layouts render with {@link #ranks()}: the result's, or, for a
     * spilled job, its stand-ins with the job's findings ranked from every rank's full report.
     */
    public AnalysisReport report() {
        return spills() ? summarised().report() : result.report();
    }

    private SpilledRanks summarised() {
        if (summarised == null) {
            summarised = SpilledRanks.of(result.report(), parts, spilled, result.findings(), timelines, pictures);
        }
        return summarised;
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
