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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The analyse command's job, on the job path ({@link AnalysisPipeline#analyseJob}): each rank read,
 * analysed, digested for the cross-rank step, reduced to its report and what the pictures asked for
 * may draw ({@link JobPictures}), and its model dropped. With {@code spill} (a big job) each rank's
 * full report goes to a {@link RankSpill} at once and the job holds a stand-in; the JSON renderer
 * ({@link #jsonRenderer()}) copies the full reports back in, one at a time, the text and markdown
 * layouts read them through {@link #ranks()}: every rank's summary, made in one pass over the spill,
 * and the full report of the ranks they show in detail, read back one at a time; and the HTML page
 * through {@link #page()}: every rank's {@link PageRank}, made in the same pass, and each rank's full
 * report read back while its section is written. Memory then follows the ranks read at once, not the
 * job. Close it to delete the spilled reports.
 */
public final class JobAnalysis implements AutoCloseable {
    /** A job of more inputs than this spills its ranks' reports. */
    public static final int SPILL_INPUTS = 64;

    private final PipelineResult result;
    private final TimelineIndex pictures;
    private final RankSpill spilled;
    private final Map<RankReport, Path> parts;
    /** What the pictures kept of each rank, by its record (identity); a page's missing steps join it. */
    private final Map<RankReport, PrecomputedTimelines> timelines;
    /** Whether an HTML page is drawn: the pass over the spill then makes every rank's {@link PageRank}. */
    private final boolean page;
    /** Reads ranks again for the page's steps whose unions no rank kept. */
    private final Function<Map<RankReport, Set<String>>, Map<RankReport, PrecomputedTimelines>> readAgain;
    /** Made on first use: a JSON report never needs them. */
    private SpilledRanks summarised;
    /** Every rank's {@link PageRank}, from the pass that made {@link #summarised}; empty without a page. */
    private List<PageRank> pageRanks;
    /** Made on first use. */
    private PageJob pageJob;

    /**
     * @param result    the report (spilled ranks hold their stand-ins) and the ranks (digest traces)
     * @param pictures  what the pictures draw from; empty without pictures
     * @param spilled   the spill, or {@code null}
     * @param parts     the spilled ranks' files, by the report's rank records (identity)
     * @param timelines what was kept for the pictures of each rank, by its record (identity)
     * @param page      whether an HTML page is drawn
     * @param readAgain reads ranks again for the steps named (see {@link JobPictures#readingAgain})
     */
    private JobAnalysis(PipelineResult result, TimelineIndex pictures, RankSpill spilled, Map<RankReport, Path> parts,
                        Map<RankReport, PrecomputedTimelines> timelines, boolean page,
                        Function<Map<RankReport, Set<String>>, Map<RankReport, PrecomputedTimelines>> readAgain) {
        this.result = result;
        this.pictures = pictures;
        this.spilled = spilled;
        this.parts = parts;
        this.timelines = timelines;
        this.page = page;
        this.readAgain = readAgain;
    }

    /** What the job keeps of a rank besides the report it holds. */
    private record Kept(PrecomputedTimelines timelines, Path spilledTo) {
    }

    /**
     * Reads and analyses the job.
     *
     * @param spill    put each rank's full report in a temporary directory
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
            Map<RankReport, PrecomputedTimelines> kept = new IdentityHashMap<>();
            for (int i = 0; i < ranks.size(); i++) {
                Kept k = job.kept().get(i);
                timelines.add(k.timelines());
                if (k.spilledTo() != null) {
                    parts.put(ranks.get(i), k.spilledTo());
                }
                if (k.timelines() != null) {
                    kept.put(ranks.get(i), k.timelines());
                }
            }
            TimelineIndex index = JobPictures.index(ranks, timelines);
            Function<Map<RankReport, Set<String>>, Map<RankReport, PrecomputedTimelines>> again =
                    JobPictures.readingAgain(result.inputs(), source -> AnalysisPipeline.readAgain(in, Path.of(source)));
            if (pictures.pageInputs() > 0 && parts.isEmpty()) {
                // A spilled job's page is completed from its ranks read back: see page().
                JobPictures.completeForPage(result.report(), index, ranks, timelines, again);
            }
            return new JobAnalysis(result, index, spilled, parts, kept, pictures.pageInputs() > 0, again);
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
            // Shared by every rank's steps: the names repeat across ranks.
            Map<String, String> names = new ConcurrentHashMap<>();
            SpilledRanks.Pass<PageRank> pass = SpilledRanks.of(result.report(), parts, spilled, result.findings(),
                    timelines, pictures, page ? (held, full) -> pageRank(held, full, names) : null);
            summarised = pass.ranks();
            pageRanks = page ? new ArrayList<>(pass.each()) : List.of();
        }
        return summarised;
    }

    /**
     * What the page reads of a rank (on the pass's thread), its drawings measured from what was kept of
     * it: the featured steps' now, the others' from the rank read back if the plan asks.
     */
    private PageRank pageRank(RankReport held, RankReport full, Map<String, String> names) {
        UnaryOperator<String> shared = name -> names.computeIfAbsent(name, n -> n);
        return measured(held, full, shared).computed(() -> measured(held, summarised.revised(held), shared)
                .timelines());
    }

    /** The rank's {@link PageRank} with its timelines looked up, when asked, in an index of its own. */
    private PageRank measured(RankReport held, RankReport full, UnaryOperator<String> names) {
        PrecomputedTimelines kept = timelines.get(held);
        TimelineIndex own = new TimelineIndex();
        if (kept != null) {
            own.add(full, kept);
        }
        return PageRank.of(full, own, names);
    }

    /**
     * The job as the HTML page reads it. For a spilled job: the report of {@link #report()}, every rank's
     * {@link PageRank} (made in the pass over the spill), and each rank's full report read back while its
     * section is written; the steps the page draws whose unions no rank kept are read again first, as
     * for a job held whole.
     */
    public PageJob page() {
        if (pageJob == null) {
            if (!spills()) {
                pageJob = PageJob.inReport(result.report(), pictures);
            } else if (!page) {
                throw new IllegalStateException("no HTML page was asked for: the pass over the spill made nothing "
                        + "for it");
            } else {
                pageJob = spilledPage();
            }
        }
        return pageJob;
    }

    private PageJob spilledPage() {
        SpilledRanks ranks = summarised();
        List<RankReport> held = result.report().ranks();
        Map<Integer, Set<String>> missing = TimelinePlan.of(pageRanks, held, TimelinePlan.MAX_TIMELINES,
                TimelinePlan.MAX_BYTES).missingByPosition();
        if (!missing.isEmpty()) {
            Map<RankReport, Set<String>> byRank = new IdentityHashMap<>();
            Map<RankReport, Integer> position = new IdentityHashMap<>();
            missing.forEach((i, steps) -> {
                byRank.put(held.get(i), steps);
                position.put(held.get(i), i);
            });
            Map<String, String> names = new ConcurrentHashMap<>();
            pageRanks.forEach(r -> java.util.Arrays.stream(r.names()).forEach(n -> names.putIfAbsent(n, n)));
            readAgain.apply(byRank).forEach((rank, more) -> {
                PrecomputedTimelines had = timelines.get(rank);
                timelines.put(rank, had == null ? more : had.withUnions(more.unions()));
                pageRanks.set(position.get(rank), pageRank(rank, ranks.revised(rank), names));
            });
        }
        return new PageJob(ranks.report(), pageRanks, ranks, pictures);
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
