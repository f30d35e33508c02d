package io.overlapanalyze.render;

import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.timeline.TerminalTimeline;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.PeerBoundTail;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.report.Totals;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.Map;

/**
 * The short report for people at a terminal: per rank, one line per step with the four markers
 * (relative to the step's device start, in ms), the tail and its cause, exposed communication and
 * overlap; the tail's chain; then a whole-run summary of medians.
 */
public final class TextRenderer implements ReportRenderer {
    private static final String[] HEADER = {"step", "time", "ready", "reduce", "compute", "reduce", "tail", "cause",
            "exposed", "overlap"};
    private static final String[] HEADER2 = {"", "ms", "first", "start", "last end", "last end", "ms", "",
            "comm ms", ""};

    private final boolean crossCheck;
    /** Draws a few lines per step under the table; {@code null}: no timelines. */
    private final TerminalTimeline timeline;
    /** Which ranks a job's report details, and how many rank rows its overview lists. */
    private final ReportLayout layout;
    /** How the report's rank records are read: whole, or summaries of full reports kept elsewhere. */
    private final JobRanks ranks;

    /** The default report: no cross-check section, no timelines. */
    public TextRenderer() {
        this(false, null);
    }

    /** @param crossCheck also print, per rank, our overlap numbers next to the profiler's own */
    public TextRenderer(boolean crossCheck) {
        this(crossCheck, null);
    }

    /** The report with a terminal timeline per step ({@code null} for none). */
    public TextRenderer(TerminalTimeline timeline) {
        this(false, timeline);
    }

    /**
     * @param crossCheck also print, per rank, our overlap numbers next to the profiler's own
     * @param timeline   draws a few lines per step under the table; {@code null} for none
     */
    public TextRenderer(boolean crossCheck, TerminalTimeline timeline) {
        this(crossCheck, timeline, ReportLayout.byDefault());
    }

    /**
     * @param crossCheck also print, per rank, our overlap numbers next to the profiler's own
     * @param timeline   draws a few lines per step under the table; {@code null} for none
     * @param layout     which ranks of a job to detail, how many rank rows to list
     */
    public TextRenderer(boolean crossCheck, TerminalTimeline timeline, ReportLayout layout) {
        this(crossCheck, timeline, layout, JobRanks.inReport());
    }

    /**
     * @param crossCheck also print, per rank, our overlap numbers next to the profiler's own
     * @param timeline   draws a few lines per step under the table; {@code null} for none
     * @param layout     which ranks of a job to detail, how many rank rows to list
     * @param ranks      how the report's rank records are read (a big job's are stand-ins for full
     *                   reports kept elsewhere)
     */
    public TextRenderer(boolean crossCheck, TerminalTimeline timeline, ReportLayout layout, JobRanks ranks) {
        this.crossCheck = crossCheck;
        this.timeline = timeline;
        this.layout = layout;
        this.ranks = ranks;
    }

    @Override
    public void render(AnalysisReport report, Writer out) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(report.tool()).append('\n');
        if (report.hang() != null) {
            // A hung job's answer comes before anything else; the section at the end has the detail.
            sb.append('\n').append(TerminalText.safe(report.hang().verdict())).append('\n');
        }
        if (report.ranks().size() > 1) {
            job(report, sb);
        } else {
            if (report.ranks().isEmpty()) {
                sb.append("no rank traces found\n");
            } else {
                findings(report, sb);
            }
            for (RankReport held : report.ranks()) {
                RankReport rank = ranks.full(held);
                sb.append('\n');
                renderRank(rank, peerBound(report, rank), Integer.MAX_VALUE, sb);
            }
            if (report.crossRank() != null) {
                CrossRankText.text(report.crossRank(), sb, Integer.MAX_VALUE);
            }
        }
        if (report.hang() != null) {
            HangSection.text(report.hang(), sb);
        }
        out.write(sb.toString());
        out.flush();
    }

    /**
     * A job top-down: the overview (inputs, step period across ranks, errors), the findings, the
     * rank table worst first, the cross-rank section, then the ranks asked for in detail.
     */
    private void job(AnalysisReport report, StringBuilder sb) {
        JobOverview overview = JobOverview.of(report, ranks);
        sb.append('\n');
        for (String line : JobSection.lines(overview, TerminalText::safe)) {
            sb.append(line).append('\n');
        }
        findings(report, sb);
        String noSteps = JobSection.noSteps(overview);
        if (noSteps != null) {
            sb.append('\n').append(noSteps).append('\n');
        } else {
            sb.append('\n').append(JobSection.title(overview, layout)).append('\n');
            List<String[]> rows = new ArrayList<>();
            rows.add(JobSection.HEADER);
            rows.addAll(JobSection.rows(overview, layout));
            TextTable.render(rows, Set.of(7, 9), sb);
            String more = JobSection.more(overview, layout);
            if (more != null) {
                sb.append(more).append('\n');
            }
        }
        if (report.crossRank() != null) {
            CrossRankText.text(report.crossRank(), sb, layout.fullTables() ? Integer.MAX_VALUE
                    : CrossRankText.COMPACT_ROWS);
        }
        List<RankReport> detailed = overview.detailed(report, layout.detail());
        String detailLine = JobSection.detailLine(overview, layout,
                detailed.stream().map(RankReport::rank).distinct().toList());
        if (detailLine != null) {
            sb.append('\n').append(detailLine).append('\n');
        }
        for (RankReport held : detailed) {
            RankReport rank = ranks.full(held);
            sb.append('\n');
            rankFindings(rank, sb);
            renderRank(rank, peerBound(report, rank), layout.stepRows(), sb);
        }
    }

    private static List<PeerBoundTail> peerBound(AnalysisReport report, RankReport rank) {
        return report.crossRank() == null ? List.of() : report.crossRank().peerBoundTails(rank.rank());
    }

    /** The job's findings first: the answer before the detail (metrics.md §13). */
    private void findings(AnalysisReport report, StringBuilder sb) {
        sb.append('\n').append(FindingsView.TITLE).append(":\n");
        if (report.findings().isEmpty()) {
            sb.append("  ").append(FindingsView.none(report, ranks)).append('\n');
            return;
        }
        FindingsView.text(report.findings(), "  ", TerminalText::safe, sb);
    }

    /** In a job, each rank's own findings in one line above its detail. */
    private static void rankFindings(RankReport rank, StringBuilder sb) {
        if (rank.findings().isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        for (Finding f : rank.findings()) {
            parts.add(f.kind() + (f.savingNs() == null ? "" : " " + Units.msUnit(f.savingNs())));
        }
        sb.append("rank ").append(rank.rank()).append(" findings: ").append(String.join(", ", parts)).append('\n');
    }

    private void renderRank(RankReport rank, List<PeerBoundTail> peerBound, int stepRows, StringBuilder sb) {
        List<StepReport> shown = JobOverview.longestSteps(rank.steps(), stepRows);
        sb.append(rankHeading(rank)).append("  ").append(TerminalText.safe(rank.source())).append("  (")
                .append(rank.format().toLowerCase(Locale.ROOT)).append(")\n");
        String where = WhereTimeWent.line(rank, TerminalText::safe);
        if (where != null) {
            sb.append(where).append('\n');
        }
        if (!rank.steps().isEmpty()) {
            sb.append("markers are ms after the step's first device activity; * = partial step\n\n");
            List<String[]> rows = new ArrayList<>();
            rows.add(HEADER);
            rows.add(HEADER2);
            for (StepReport s : shown) {
                var m = s.markers();
                rows.add(new String[] {
                        s.name() + (s.partial() ? "*" : ""),
                        Units.ms(s.stepTimeNs()),
                        Units.rel(m.firstBucketReadyNs(), s.deviceStartNs()),
                        Units.rel(m.reduceStartNs(), s.deviceStartNs()),
                        Units.rel(m.lastComputeEndNs(), s.deviceStartNs()),
                        Units.rel(m.lastReduceEndNs(), s.deviceStartNs()),
                        Units.ms(s.tailNs()),
                        s.tailNs() == null ? "-" : s.attribution().kind().name(),
                        JobOverview.commKnown(rank) ? Units.ms(s.exposedCommNs()) : "n/a",
                        Units.pct(s.overlapRatio())});
            }
            TextTable.render(rows, Set.of(0, 7), sb);
            String unusable = Explanations.noUsableData(rank);
            if (unusable != null) {
                sb.append(TerminalText.safe(unusable)).append('\n');
            }
            if (shown.size() < rank.steps().size()) {
                sb.append("… ").append(rank.steps().size() - shown.size()).append(" more steps (the ")
                        .append(shown.size()).append(" longest shown; --detail ").append(rank.rank())
                        .append(" shows every step)\n");
            }
            for (StepReport s : shown) {
                if (s.tailNs() != null && s.tailNs() > 0 && !s.attribution().chain().isEmpty()) {
                    sb.append("  ").append(TerminalText.safe(s.name())).append(" tail chain: ").append(chain(s));
                    peerBound.stream().filter(p -> p.step().equals(s.name())).findFirst().ifPresent(p ->
                            sb.append("; it waited ").append(Units.msUnit(p.waitNs())).append(" of ")
                                    .append(Units.msUnit(p.durationNs())).append(" for ")
                                    .append(p.lateRank() == null ? "late peers" : "rank " + p.lateRank()));
                    sb.append('\n');
                }
            }
            if (timeline != null) {
                for (StepReport s : shown) {
                    String lines = timeline.render(rank, s);
                    if (!lines.isEmpty()) {
                        sb.append('\n').append(lines);
                    }
                }
            }
        }
        summary(rank, peerBound, sb);
        beyond(rank, stepRows, sb);
        if (crossCheck) {
            if (rank.crossCheck().isEmpty()) {
                sb.append("cross-check: the trace carries no overlap numbers of its own\n");
            } else {
                sb.append("\ncross-check against ").append(TerminalText.safe(rank.crossCheck().get(0).origin()))
                        .append(" (docs/ascend-cross-check.md):\n");
                List<String[]> rows = new ArrayList<>();
                rows.add(CrossCheckView.HEADER);
                rows.addAll(CrossCheckView.rows(rank.crossCheck()));
                TextTable.render(rows, Set.of(0, 1), sb);
            }
        }
        for (String note : rank.notes()) {
            sb.append("note: ").append(TerminalText.safe(note)).append('\n');
        }
        for (String warning : rank.warnings()) {
            sb.append("warning: ").append(TerminalText.safe(warning)).append('\n');
        }
    }

    /** The "Beyond DDP" sections: parallelism, prefetch, pipeline, launch, contention, memory. */
    private static void beyond(RankReport rank, int maxLines, StringBuilder sb) {
        if (rank.steps().isEmpty()) {
            return;
        }
        sb.append('\n');
        for (BeyondView.Section section : BeyondView.sections(rank, maxLines)) {
            sb.append(TerminalText.safe(section.title())).append('\n');
            for (String line : section.lines()) {
                sb.append("  ").append(TerminalText.safe(line)).append('\n');
            }
            if (section.table() != null && section.table().size() > 1) {
                StringBuilder t = new StringBuilder();
                TextTable.render(section.table(), Set.of(0), t);
                t.toString().lines().forEach(l -> sb.append("  ").append(l).append('\n'));
            }
        }
    }

    /** "rank 3 of 8", or "rank 0 (assumed: the trace does not say)". */
    public static String rankHeading(RankReport rank) {
        StringBuilder sb = new StringBuilder("rank ").append(rank.rank());
        if (rank.worldSize() != null) {
            sb.append(" of ").append(rank.worldSize());
        }
        switch (rank.rankSource()) {
            case "DEFAULT" -> sb.append(" (assumed: the trace does not say)");
            case "FILE_NAME" -> sb.append(" (from the file name)");
            case "USER" -> sb.append(" (given by the user)");
            default -> {
                // From the trace itself: nothing to qualify.
            }
        }
        return sb.toString();
    }

    public static String chain(StepReport s) {
        List<String> parts = new ArrayList<>();
        for (ChainLink l : s.attribution().chain()) {
            parts.add(l.type() + " " + Units.bytes(l.bytes()) + " [" + Units.rel(l.startNs(), s.deviceStartNs())
                    + ", " + Units.rel(l.endNs(), s.deviceStartNs()) + "] " + l.boundBy());
        }
        return String.join(" <- ", parts);
    }

    private void summary(RankReport rank, List<PeerBoundTail> peerBound, StringBuilder sb) {
        Totals t = rank.totals();
        if (t == null || t.steps() == 0) {
            return;
        }
        Totals.Medians md = t.medians();
        boolean comm = JobOverview.commKnown(rank);
        sb.append('\n').append("summary over ").append(t.steps()).append(t.steps() == 1 ? " step" : " steps")
                .append(" (medians): step ").append(Units.msUnit(md.stepTimeNs()))
                .append(", tail ").append(Units.msUnit(md.tailNs()))
                .append(", exposed comm ").append(Units.msUnit(comm ? md.exposedCommNs() : null))
                .append(" (gradients ").append(Units.msUnit(comm ? md.exposedGradCommNs() : null)).append(")")
                .append(", overlap ").append(Units.pct(md.overlapRatio()))
                .append(", start delay ").append(Units.msUnit(md.startDelayNs())).append('\n');
        sb.append("totals: comm busy ").append(Units.msUnit(comm ? t.commBusyNs() : null))
                .append(", compute busy ").append(Units.msUnit(t.computeBusyNs()))
                .append(", overlapped ").append(Units.msUnit(comm ? t.overlappedNs() : null));
        if (t.overlapRatio() != null) {
            sb.append(" (").append(Units.pct(t.overlapRatio())).append(" of comm)");
        }
        sb.append(", exposed comm ").append(Units.msUnit(comm ? t.exposedCommNs() : null))
                .append(", idle ").append(Units.msUnit(t.idleNs()));
        if (t.stepPeriodNs() != null) {
            // Periods never overlap: idle is part of them, where adding step times counts pipelined
            // steps' shared time twice.
            sb.append(" of ").append(Units.msUnit(t.stepPeriodNs())).append(" in step periods");
        }
        sb.append('\n');
        if (!comm) {
            sb.append("communication: not available: ").append(TerminalText.safe(rank.notAvailable().communication()))
                    .append('\n');
        }
        String split = comm ? Explanations.commSplit(JobOverview.counted(rank, t)) : null;
        if (split != null) {
            sb.append("transfer / waiting: ").append(split).append('\n');
        }
        if (rank.preCapture() != null && rank.preCapture().intervals() > 0) {
            sb.append("before the capture: ").append(rank.preCapture().intervals())
                    .append(" device intervals still running from earlier launches, busy ")
                    .append(Units.msUnit(rank.preCapture().busyNs())).append(" (comm ")
                    .append(Units.msUnit(rank.preCapture().commBusyNs())).append("), in no step\n");
        }
        if (rank.steps().stream().noneMatch(s -> s.gradCollectives() > 0)) {
            sb.append("no gradient reductions on the device in any step: markers and tail are not defined\n");
        }
        Map<TailKind, Integer> kinds = new EnumMap<>(TailKind.class);
        Set<String> counted = new java.util.HashSet<>();
        for (StepReport s : JobOverview.counted(rank, t)) {
            if (s.tailNs() != null && s.tailNs() > 0) {
                kinds.merge(s.attribution().kind(), 1, Integer::sum);
                counted.add(s.name());
            }
        }
        List<PeerBoundTail> late = peerBound.stream().filter(p -> counted.contains(p.step())).toList();
        boolean peerAdvice = Explanations.peerBoundDominates(late, counted.size());
        kinds.entrySet().stream().max(Map.Entry.comparingByValue()).ifPresent(e ->
                sb.append("tail: ").append(e.getKey()).append(" in ").append(e.getValue()).append(" of ")
                        .append(t.steps()).append(" steps")
                        .append(peerAdvice ? ", but " + Explanations.peerBound(late, counted.size())
                                : ": " + Explanations.tail(e.getKey(), rank)).append('\n'));
        if (!late.isEmpty() && !peerAdvice) {
            sb.append("tail: ").append(Explanations.peerBound(late, counted.size())).append('\n');
        }
    }
}
