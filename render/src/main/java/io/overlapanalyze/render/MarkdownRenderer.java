package io.overlapanalyze.render;

import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.JobRanks;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Totals;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/** The report as GitHub-flavoured markdown, for CI job summaries and pull-request comments. */
public final class MarkdownRenderer implements ReportRenderer {
    private final boolean crossCheck;
    /** Which ranks of a job to detail, how many rank rows to list. */
    private final ReportLayout layout;
    /** How the report's rank records are read: whole, or summaries of full reports kept elsewhere. */
    private final JobRanks ranks;

    /** The default report, without the cross-check section. */
    public MarkdownRenderer() {
        this(false);
    }

    /** @param crossCheck also show, per rank, our overlap numbers next to the profiler's own */
    public MarkdownRenderer(boolean crossCheck) {
        this(crossCheck, ReportLayout.byDefault());
    }

    /**
     * @param crossCheck also show, per rank, our overlap numbers next to the profiler's own
     * @param layout     which ranks of a job to detail, how many rank rows to list
     */
    public MarkdownRenderer(boolean crossCheck, ReportLayout layout) {
        this(crossCheck, layout, JobRanks.inReport());
    }

    /**
     * @param crossCheck also show, per rank, our overlap numbers next to the profiler's own
     * @param layout     which ranks of a job to detail, how many rank rows to list
     * @param ranks      how the report's rank records are read (a big job's are stand-ins for full
     *                   reports kept elsewhere)
     */
    public MarkdownRenderer(boolean crossCheck, ReportLayout layout, JobRanks ranks) {
        this.crossCheck = crossCheck;
        this.layout = layout;
        this.ranks = ranks;
    }

    @Override
    public void render(AnalysisReport report, Writer out) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# overlap-analyze report\n\n").append("_").append(report.tool()).append("_\n");
        if (report.hang() != null) {
            sb.append("\n**").append(escape(report.hang().verdict())).append("**\n");
        }
        boolean job = report.ranks().size() > 1;
        JobOverview overview = job ? JobOverview.of(report, ranks) : null;
        if (job) {
            sb.append("\n## Job\n\n");
            for (String line : JobSection.lines(overview, MarkdownRenderer::escape)) {
                sb.append("- ").append(line.startsWith("ERROR ") ? "**ERROR** " + line.substring(6) : escape(line))
                        .append('\n');
            }
        }
        if (!report.ranks().isEmpty()) {
            sb.append("\n## ").append(FindingsView.TITLE).append("\n\n");
            if (report.findings().isEmpty()) {
                sb.append(FindingsView.none(report, ranks)).append('\n');
            }
            int n = 1;
            for (Finding f : report.findings()) {
                String where = FindingsView.ranks(f);
                sb.append(n++).append(". **").append(f.kind()).append("**: ").append(FindingsView.saving(f))
                        .append(where.isEmpty() ? "" : ", " + where).append(".\n   ")
                        .append(escape(f.evidence())).append(".\n   *Change:* ")
                        .append(escape(f.action())).append(".\n");
            }
        }
        if (!job) {
            for (RankReport held : report.ranks()) {
                rank(ranks.full(held), Integer.MAX_VALUE, sb);
            }
            if (report.crossRank() != null) {
                CrossRankText.markdown(report.crossRank(), sb, Integer.MAX_VALUE);
            }
        } else {
            String noSteps = JobSection.noSteps(overview);
            if (noSteps != null) {
                sb.append("\n## Ranks\n\n").append(escape(capitalised(noSteps))).append(".\n");
            } else {
                sb.append("\n## ").append(escape(capitalised(JobSection.title(overview, layout)))).append("\n\n| ")
                        .append(String.join(" | ", JobSection.HEADER)).append(" |\n|");
                for (int i = 0; i < JobSection.HEADER.length; i++) {
                    sb.append(i == 7 || i == 9 ? "---|" : "--:|");
                }
                sb.append('\n');
                for (String[] row : JobSection.rows(overview, layout)) {
                    sb.append("| ").append(String.join(" | ", row)).append(" |\n");
                }
                String more = JobSection.more(overview, layout);
                if (more != null) {
                    sb.append('\n').append(escape(more)).append('\n');
                }
            }
            if (report.crossRank() != null) {
                CrossRankText.markdown(report.crossRank(), sb, layout.fullTables() ? Integer.MAX_VALUE
                        : CrossRankText.COMPACT_ROWS);
            }
            List<RankReport> detailed = overview.detailed(report, layout.detail());
            String detailLine = JobSection.detailLine(overview, layout,
                    detailed.stream().map(RankReport::rank).distinct().toList());
            if (detailLine != null) {
                sb.append('\n').append(escape(capitalised(detailLine))).append(".\n");
            }
            for (RankReport held : detailed) {
                rank(ranks.full(held), layout.stepRows(), sb);
            }
        }
        if (report.hang() != null) {
            HangSection.markdown(report.hang(), sb);
        }
        out.write(sb.toString());
        out.flush();
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    /** One rank in detail: where the time went, the step table, the summary, beyond DDP, notes. */
    private void rank(RankReport rank, int stepRows, StringBuilder sb) {
        List<StepReport> shown = JobOverview.longestSteps(rank.steps(), stepRows);
        sb.append("\n## ").append(escape(TextRenderer.rankHeading(rank)))
                .append("\n\nSource: ").append(MarkdownEscape.code(rank.source())).append(" (")
                .append(rank.format().toLowerCase(Locale.ROOT)).append(")\n\n");
        String where = WhereTimeWent.line(rank, MarkdownRenderer::escape);
        if (where != null) {
            where = where.replace("\n  the host meanwhile", "; the host meanwhile");
            sb.append(where.substring(0, 1).toUpperCase(Locale.ROOT)).append(where.substring(1)).append(".\n\n");
            sb.append("| part | median ms | share |\n|---|--:|--:|\n");
            long whole = rank.totals().breakdown().totalNs();
            for (WhereTimeWent.Part p : WhereTimeWent.parts(rank)) {
                sb.append("| ").append(escape(p.label())).append(" | ").append(Units.ms(p.medianNs())).append(" | ")
                        .append(WhereTimeWent.share(p.totalNs(), whole)).append(" |\n");
            }
            sb.append('\n');
        }
        if (!rank.steps().isEmpty()) {
            sb.append("Markers in ms after the step's first device activity.\n\n");
            sb.append("| step | partial | time ms | first ready | reduce start | last compute end | last reduce end "
                    + "| tail ms | cause | exposed comm ms | overlap |\n");
            sb.append("|---|---|--:|--:|--:|--:|--:|--:|---|--:|--:|\n");
            for (StepReport s : shown) {
                var m = s.markers();
                sb.append("| ").append(escape(s.name())).append(" | ").append(s.partial() ? "yes" : "")
                        .append(" | ").append(Units.ms(s.stepTimeNs()))
                        .append(" | ").append(Units.rel(m.firstBucketReadyNs(), s.deviceStartNs()))
                        .append(" | ").append(Units.rel(m.reduceStartNs(), s.deviceStartNs()))
                        .append(" | ").append(Units.rel(m.lastComputeEndNs(), s.deviceStartNs()))
                        .append(" | ").append(Units.rel(m.lastReduceEndNs(), s.deviceStartNs()))
                        .append(" | ").append(Units.ms(s.tailNs()))
                        .append(" | ").append(s.tailNs() == null ? "" : s.attribution().kind().name())
                        .append(" | ").append(JobOverview.commKnown(rank) ? Units.ms(s.exposedCommNs()) : "n/a")
                        .append(" | ").append(Units.pct(s.overlapRatio())).append(" |\n");
            }
            String unusable = Explanations.noUsableData(rank);
            if (unusable != null) {
                sb.append("\n> ").append(escape(unusable)).append('\n');
            }
            if (shown.size() < rank.steps().size()) {
                sb.append("\n… ").append(rank.steps().size() - shown.size()).append(" more steps (the ")
                        .append(shown.size()).append(" longest shown; --detail ").append(rank.rank())
                        .append(" shows every step)\n");
            }
            for (StepReport s : shown) {
                if (s.tailNs() != null && s.tailNs() > 0 && !s.attribution().chain().isEmpty()) {
                    sb.append("\n- **").append(escape(s.name())).append("** tail chain: ")
                            .append(escape(TextRenderer.chain(s)));
                }
            }
            sb.append('\n');
        }
        Totals t = rank.totals();
        if (t != null && t.steps() > 0) {
            Totals.Medians md = t.medians();
            sb.append("\n**Summary** over ").append(t.steps()).append(" steps (medians): step ")
                    .append(Units.msUnit(md.stepTimeNs())).append(", tail ").append(Units.msUnit(md.tailNs()))
                    .append(", exposed comm ").append(Units.msUnit(JobOverview.commKnown(rank)
                            ? md.exposedCommNs() : null)).append(", overlap ")
                    .append(Units.pct(md.overlapRatio())).append(".\n");
            String split = JobOverview.commKnown(rank) ? Explanations.commSplit(JobOverview.counted(rank, t)) : null;
            if (split != null) {
                sb.append("\n**Transfer / waiting**: ").append(escape(split)).append(".\n");
            }
        }
        if (!rank.steps().isEmpty()) {
            for (BeyondView.Section section : BeyondView.sections(rank, stepRows)) {
                sb.append("\n**").append(escape(section.title())).append("**\n");
                if (!section.lines().isEmpty()) {
                    sb.append('\n');
                }
                for (String line : section.lines()) {
                    sb.append(line.startsWith("  ") ? "  - " : "- ").append(escape(line.strip())).append('\n');
                }
                if (section.table() != null && section.table().size() > 1) {
                    sb.append('\n');
                    String[] header = section.table().get(0);
                    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
                    sb.append("---|".repeat(header.length)).append('\n');
                    for (String[] row : section.table().subList(1, section.table().size())) {
                        sb.append("| ");
                        for (String cell : row) {
                            sb.append(escape(cell)).append(" | ");
                        }
                        sb.setLength(sb.length() - 1);
                        sb.append('\n');
                    }
                }
            }
        }
        if (crossCheck && !rank.crossCheck().isEmpty()) {
            sb.append("\n**Cross-check** against ").append(escape(rank.crossCheck().get(0).origin())).append("\n\n");
            sb.append("| step | quantity | ours ms | theirs ms | diff ns |\n|---|---|--:|--:|--:|\n");
            for (String[] r : CrossCheckView.rows(rank.crossCheck())) {
                sb.append("| ").append(escape(r[0])).append(" | ").append(escape(r[1])).append(" | ").append(r[2])
                        .append(" | ").append(r[3]).append(" | ").append(r[4]).append(" |\n");
            }
        }
        if (!JobOverview.commKnown(rank)) {
            sb.append("\n> communication: not available: ").append(escape(rank.notAvailable().communication()))
                    .append('\n');
        }
        for (String note : rank.notes()) {
            sb.append("\n> note: ").append(escape(note)).append('\n');
        }
        for (String w : rank.warnings()) {
            sb.append("\n> warning: ").append(escape(w)).append('\n');
        }
        }

    static String escape(String s) {
        return MarkdownEscape.text(s);
    }
}
