package io.overlapanalyze.render;

import io.overlapanalyze.findings.Findings;
import io.overlapanalyze.findings.JobFindings;
import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.overview.RankSummary;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.IntStream;

/**
 * The ranks of a big job whose full reports are in a {@link RankSpill}, as the human layouts read them
 * ({@link JobRanks}): every rank's {@link RankSummary} in memory, and a rank's full report read back
 * from its file, revised across ranks as the JSON writer revises it, when a layout shows it in detail.
 * {@link #of} makes the summaries in one pass over the spill, one rank at a time on each core, and with
 * them the job's findings, which are ranked from every rank's (the report the job path assembled holds
 * stand-ins, whose findings are not the ranks').
 */
public final class SpilledRanks implements JobRanks {
    private final Map<RankReport, RankSummary> summaries;
    private final Map<RankReport, Path> parts;
    private final RankSpill spill;
    private final Findings findings;
    private final Map<RankReport, PrecomputedTimelines> timelines;
    private final TimelineIndex index;
    private final AnalysisReport report;
    /** The rank read back last that joined the index: it leaves when the next one comes. */
    private RankReport drawn;

    private SpilledRanks(Map<RankReport, RankSummary> summaries, Map<RankReport, Path> parts, RankSpill spill,
                         Findings findings, Map<RankReport, PrecomputedTimelines> timelines, TimelineIndex index,
                         AnalysisReport report) {
        this.summaries = summaries;
        this.parts = parts;
        this.spill = spill;
        this.findings = findings;
        this.timelines = timelines;
        this.index = index;
        this.report = report;
    }

    /**
     * Reads every spilled rank back once, in the report's order, and keeps its summary.
     *
     * @param held      the report as the job path assembled it: a spilled rank's record is a stand-in
     * @param parts     the spilled ranks' files, by the report's rank records (identity)
     * @param spill     where the files are
     * @param findings  how the pipeline judged the ranks (each rank read back is revised the same way)
     * @param timelines what the pictures kept of each rank, by its record (identity); a rank read back
     *                  is drawn from its stand-in's
     * @param index     the index the timelines are drawn from: a rank read back joins it
     */
    public static SpilledRanks of(AnalysisReport held, Map<RankReport, Path> parts, RankSpill spill,
                                  Findings findings, Map<RankReport, PrecomputedTimelines> timelines,
                                  TimelineIndex index) {
        return of(held, parts, spill, findings, timelines, index, null).ranks();
    }

    /**
     * The ranks and what else a layout reads of every rank, made in the same pass.
     *
     * @param ranks the ranks, as {@link #of(AnalysisReport, Map, RankSpill, Findings, Map, TimelineIndex)} gives them
     * @param each  what {@code alsoOf} made of each rank, in the report's order; empty without it
     */
    public record Pass<T>(SpilledRanks ranks, List<T> each) {
    }

    /**
     * As {@link #of(AnalysisReport, Map, RankSpill, Findings, Map, TimelineIndex)}, and in the same pass over
     * the spill {@code alsoOf} of each rank's record and its full report, revised (on the pass's threads,
     * one rank at a time per core: it must not write anything shared), or nothing when it is {@code null}.
     */
    public static <T> Pass<T> of(AnalysisReport held, Map<RankReport, Path> parts, RankSpill spill,
                                 Findings findings, Map<RankReport, PrecomputedTimelines> timelines,
                                 TimelineIndex index, BiFunction<RankReport, RankReport, T> alsoOf) {
        List<RankReport> ranks = held.ranks();
        SpilledRanks reading = new SpilledRanks(Map.of(), parts, spill, findings, Map.of(), null, held);
        // One rank at a time per core: each read back, revised and summarised alone (nothing shared
        // is written), in the report's order by index.
        RankSummary[] summary = new RankSummary[ranks.size()];
        JobFindings.RankFindingsOf[] judged = new JobFindings.RankFindingsOf[ranks.size()];
        Object[] also = new Object[alsoOf == null ? 0 : ranks.size()];
        IntStream.range(0, ranks.size()).parallel().forEach(i -> {
            RankReport full = reading.revised(ranks.get(i));
            summary[i] = RankSummary.of(full);
            judged[i] = new JobFindings.RankFindingsOf(full.rank(), full.findings());
            if (alsoOf != null) {
                also[i] = alsoOf.apply(ranks.get(i), full);
            }
        });
        Map<RankReport, RankSummary> summaries = new IdentityHashMap<>();
        for (int i = 0; i < ranks.size(); i++) {
            summaries.put(ranks.get(i), summary[i]);
        }
        // As the JSON writer ranks them: from every rank's findings, once the last is read.
        AnalysisReport report = parts.isEmpty() ? held : new AnalysisReport(held.schemaVersion(), held.tool(),
                held.ranks(), held.crossRank(), findings.job(List.of(judged)), held.hang());
        @SuppressWarnings("unchecked")
        List<T> each = (List<T>) java.util.Collections.unmodifiableList(java.util.Arrays.asList(also));
        return new Pass<>(new SpilledRanks(summaries, parts, spill, findings, timelines, index, report), each);
    }

    /** The report the layouts render: the stand-ins, with the job's findings from every rank's full report. */
    public AnalysisReport report() {
        return report;
    }

    @Override
    public RankSummary summary(RankReport held) {
        RankSummary s = summaries.get(held);
        if (s == null) {
            throw new IllegalArgumentException("rank " + held.rank() + " is not a rank of this job");
        }
        return s;
    }

    /**
     * The rank's full report, read back and revised across ranks (the record itself when it was not
     * spilled), without joining the pictures' index: {@link #full} for a rank a layout draws.
     */
    public RankReport revised(RankReport held) {
        Path part = parts.get(held);
        return part == null ? held : findings.revise(spill.read(part));
    }

    @Override
    public RankReport full(RankReport held) {
        Path part = parts.get(held);
        if (part == null) {
            return held;
        }
        RankReport full = revised(held);
        PrecomputedTimelines kept = timelines.get(held);
        if (kept != null) {
            // The layouts draw a detailed rank before they ask for the next: the index holds one at a time.
            if (drawn != null) {
                index.remove(drawn);
            }
            index.add(full, kept);
            drawn = full;
        }
        return full;
    }
}
