package io.overlapanalyze.render.html;

import io.overlapanalyze.render.Explanations;
import io.overlapanalyze.render.FindingsView;
import io.overlapanalyze.render.HangSection;
import io.overlapanalyze.render.ReportRenderer;
import io.overlapanalyze.render.TextRenderer;
import io.overlapanalyze.render.WhereTimeWent;
import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.PeerBoundTail;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --html FILE}: one self-contained page (inline CSS and SVG, no script, no network
 * address). A job's page opens with the job ({@link JobOverviewSection}: what was read, the step
 * period across ranks, cross-rank ERRORs, the findings, a picture of the ranks and the rank table,
 * worst first); then, for every page, a summary, tail and exposed communication per step, the across-ranks section, a
 * two-lane timeline per rank and step with the markers, the tail, exposed communication and the
 * attribution chain, per rank the "Beyond DDP" block ({@link BeyondSection}), and the glossary.
 *
 * <p>Big jobs stay small: ranks and steps are collapsible ({@code <details>}), charts and
 * heatmaps are binned, and {@link TimelinePlan} bounds how many timelines are drawn.
 *
 * <p>Where the page compares ranks (summary, verdict, charts, heatmaps, the timeline plan) it reads
 * each rank's {@link PageRank}; a rank's full report is read ({@link PageJob}: from the report, or
 * back from a big job's spill) only while its own section is written, so a page of a spilled job is
 * drawn in memory that follows one rank, not the job.
 */
public final class HtmlRenderer implements ReportRenderer {
    /** Above this many steps in all, rank tables list only the drawn and featured steps. */
    static final int MAX_TABLE_ROWS = 5000;
    /** Up to this many drawn timelines are all opened; above, only the first. */
    private static final int OPEN_ALL_UP_TO = 6;
    /** Up to this many ranks, every rank's "Beyond DDP" block is opened; above, all are collapsed. */
    private static final int OPEN_BEYOND_UP_TO = 4;

    private final TimelineIndex index;
    private final CrossRankSection crossRank;
    private final int maxTimelines;
    private final long maxTimelineBytes;
    private final ReportLayout layout;

    /** The page with the built-in across-ranks section ({@link CrossRankReportSection}). */
    public HtmlRenderer(TimelineIndex index) {
        this(index, ReportLayout.byDefault());
    }

    /**
     * The page with the built-in across-ranks section; a job's rank table capped at the layout's
     * rank rows, as the text report's is.
     */
    public HtmlRenderer(TimelineIndex index, ReportLayout layout) {
        this(index, new CrossRankReportSection(), TimelinePlan.MAX_TIMELINES, TimelinePlan.MAX_BYTES, layout);
    }

    /** The page with another across-ranks section (the cross-rank analysis plugs in here). */
    public HtmlRenderer(TimelineIndex index, CrossRankSection crossRank) {
        this(index, crossRank, TimelinePlan.MAX_TIMELINES, TimelinePlan.MAX_BYTES);
    }

    HtmlRenderer(TimelineIndex index, CrossRankSection crossRank, int maxTimelines, long maxTimelineBytes) {
        this(index, crossRank, maxTimelines, maxTimelineBytes, ReportLayout.byDefault());
    }

    HtmlRenderer(TimelineIndex index, CrossRankSection crossRank, int maxTimelines, long maxTimelineBytes,
                 ReportLayout layout) {
        this.index = index;
        this.crossRank = crossRank;
        this.maxTimelines = maxTimelines;
        this.maxTimelineBytes = maxTimelineBytes;
        this.layout = layout;
    }

    @Override
    public void render(AnalysisReport report, Writer out) throws IOException {
        render(PageJob.inReport(report, index), out);
    }

    /**
     * The page of {@code job}: every rank read as its {@link PageRank} where the page compares ranks,
     * and each rank's full report read (from the report or the spill) only while its own section is
     * written, one rank at a time.
     */
    public void render(PageJob job, Writer out) throws IOException {
        AnalysisReport report = job.report();
        List<PageRank> pages = job.ranks();
        TimelinePlan plan = TimelinePlan.of(pages, report.ranks(), maxTimelines, maxTimelineBytes);
        if (!plan.missingByPosition().isEmpty()) {
            throw new IllegalStateException("the page draws steps whose unions the index lacks: "
                    + plan.missingByPosition().values());
        }
        StringBuilder sb = new StringBuilder(64 * 1024);
        int steps = pages.stream().mapToInt(PageRank::steps).sum();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>overlap-analyze: ").append(Html.esc(title(pages))).append("</title><style>")
                .append(Styles.CSS).append("</style></head><body>\n").append(TimelineSvg.ARROW_DEFS);
        boolean isJob = report.ranks().size() > 1;
        sb.append("<header><h1>overlap-analyze report</h1><p class=\"muted\">").append(Html.esc(report.tool()))
                .append(" · ").append(report.ranks().size()).append(report.ranks().size() == 1 ? " rank" : " ranks")
                .append(" · ").append(steps).append(steps == 1 ? " step" : " steps").append(" · ")
                .append(Html.esc(title(pages))).append("</p><p>")
                .append(isJob ? "<a href=\"#job\">the job</a> · " : "")
                .append("<a href=\"#findings\">what to change</a> · ")
                .append("<a href=\"#summary\">summary</a> · <a href=\"#steps\">per step</a> · ")
                .append("<a href=\"#cross-rank\">across ranks</a> · <a href=\"#ranks\">timelines</a> · ")
                .append("<a href=\"#glossary\">glossary</a></p></header>\n");
        if (report.hang() != null) {
            // A hung job's answer opens the page, as it opens the text report.
            sb.append("<section id=\"hang\"><h2>Hang (Flight Recorder)</h2><p class=\"verdict\"><b>")
                    .append(Html.esc(report.hang().verdict())).append("</b></p><div class=\"tw\"><pre>")
                    .append(Html.esc(HangSection.plainBody(report.hang()))).append("</pre></div></section>\n");
        }
        JobOverview overview = isJob ? JobOverview.of(report, job.full()) : null;
        if (isJob) {
            JobOverviewSection.write(overview, layout, () -> findings(job, "div", "h3", sb), sb);
        } else {
            findings(job, "section", "h2", sb);
        }
        summary(report, pages, sb);
        stepChart(pages, sb);
        sb.append("<section id=\"cross-rank\"><h2>Across ranks</h2>");
        if (report.ranks().size() > 1) {
            crossRank.write(job, sb);
        } else {
            sb.append("<p class=\"single-rank\">single rank: nothing to compare across ranks.</p>");
        }
        sb.append("</section>\n");
        ranks(job, detailOrder(pages, overview), plan, steps, sb);
        sb.append("<section id=\"glossary\"><h2>What the numbers mean</h2>");
        Glossary.write(sb);
        sb.append("</section>\n</body></html>\n");
        out.write(sb.toString());
        out.flush();
    }

    private static String title(List<PageRank> ranks) {
        if (ranks.isEmpty()) {
            return "no rank traces";
        }
        String first = ranks.get(0).source();
        return ranks.size() == 1 ? first : first + " and " + (ranks.size() - 1) + " more";
    }

    private void summary(AnalysisReport report, List<PageRank> ranks, StringBuilder sb) {
        sb.append("<section id=\"summary\"><h2>Summary</h2>");
        if (ranks.isEmpty()) {
            sb.append("<p>No rank traces found.</p></section>\n");
            return;
        }
        verdict(ranks, report.crossRank() == null ? List.of() : report.crossRank().peerBoundTails(), sb);
        boolean many = ranks.size() > 16;
        if (many) {
            sb.append("<details><summary>per-rank numbers (").append(ranks.size()).append(" ranks)</summary>");
        }
        sb.append("<div class=\"tw\"><table class=\"ranks\"><tr><th class=\"l\">rank</th><th class=\"l\">source</th><th>steps</th>"
                + "<th>median step ms</th><th>median tail ms</th><th class=\"l\">cause</th>"
                + "<th>median exposed comm ms</th><th>overlap</th></tr>");
        String[] ids = rankIds(ranks);
        for (int i = 0; i < ranks.size(); i++) {
            PageRank r = ranks.get(i);
            var md = r.medians();
            TailKind cause = r.dominantCause();
            sb.append("<tr><td class=\"l\"><a href=\"#").append(ids[i]).append("\">")
                    .append(Html.esc(r.heading())).append("</a></td><td class=\"l src\">")
                    .append(Html.esc(r.source())).append("</td><td>").append(r.countedSteps())
                    .append("</td><td>").append(md == null ? "-" : Units.ms(md.stepTimeNs())).append("</td><td>")
                    .append(md == null ? "-" : Units.ms(md.tailNs())).append("</td><td class=\"l\">")
                    .append(cause == null ? "-" : cause.name()).append("</td><td>")
                    .append(md == null ? "-" : Units.ms(md.exposedCommNs())).append("</td><td>")
                    .append(md == null ? "-" : Units.pct(md.overlapRatio())).append("</td></tr>");
        }
        sb.append("</table></div>");
        if (many) {
            sb.append("</details>");
        }
        sb.append("</section>\n");
    }

    /** One paragraph: the median tail over ranks, its most common cause and what that means. */
    private static void verdict(List<PageRank> ranks, List<PeerBoundTail> peerBound, StringBuilder sb) {
        List<Long> tails = new ArrayList<>();
        List<Long> exposed = new ArrayList<>();
        // In the order each cause first appears over the ranks' steps: a tie goes to the first.
        Map<TailKind, Integer> causes = new LinkedHashMap<>();
        int stepsWithTail = 0;
        boolean waitsOutsideInput = false;
        for (PageRank r : ranks) {
            if (r.medians() != null) {
                if (r.medians().tailNs() != null) {
                    tails.add(r.medians().tailNs());
                }
                if (r.medians().exposedCommNs() != null) {
                    exposed.add(r.medians().exposedCommNs());
                }
            }
            for (Map.Entry<TailKind, Integer> c : r.tailCauses().entrySet()) {
                causes.merge(c.getKey(), c.getValue(), Integer::sum);
                stepsWithTail += c.getValue();
            }
            waitsOutsideInput |= r.waitsOutsideInput();
        }
        sb.append("<div class=\"verdict\">");
        if (tails.isEmpty()) {
            sb.append("<p>No tail is defined: no step has gradient reductions on the device.");
        } else {
            String over = ranks.size() == 1 ? "" : " (median over " + ranks.size() + " ranks)";
            sb.append("<p><b>Median tail ").append(Units.ms(median(tails))).append(" ms</b>").append(over);
            var top = causes.entrySet().stream().max(Map.Entry.comparingByValue());
            if (top.isPresent()) {
                sb.append(", mostly <b>").append(top.get().getKey()).append("</b> (").append(top.get().getValue())
                        .append(" of ").append(stepsWithTail).append(" steps with a tail)")
                        .append(Html.esc(Explanations.peerBoundDominates(peerBound, stepsWithTail)
                                ? ", but " + Explanations.peerBound(peerBound, stepsWithTail)
                                : ": " + Explanations.tail(top.get().getKey(), waitsOutsideInput))).append('.');
            } else {
                sb.append(": no step has a tail.");
            }
        }
        if (!exposed.isEmpty()) {
            sb.append(" Median exposed communication ").append(Units.ms(median(exposed))).append(" ms per step.");
        }
        sb.append("</p></div>");
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Tail and exposed communication per step: the rank's own, or the median over ranks per step name. */
    private static void stepChart(List<PageRank> ranks, StringBuilder sb) {
        sb.append("<section id=\"steps\"><h2>Tail and exposed communication per step</h2>");
        StepChartSvg.Series series = jobSeries(ranks);
        if (series.labels().isEmpty()) {
            sb.append("<p>No steps.</p></section>\n");
            return;
        }
        sb.append("<p class=\"legend\"><span><i class=\"sw\" style=\"background:var(--t)\"></i>tail</span>")
                .append("<span><i class=\"sw\" style=\"background:var(--x)\"></i>exposed comm</span>")
                .append(ranks.size() > 1 ? "<span class=\"muted\">median over ranks per step</span>" : "")
                .append("</p>");
        sb.append(StepChartSvg.render(series, "tail and exposed communication per step")).append("</section>\n");
    }

    /** Per step name with device work (in first appearance order), the median over {@code ranks} of tail and exposed comm. */
    static StepChartSvg.Series jobSeries(List<PageRank> ranks) {
        Map<String, List<long[]>> byName = new LinkedHashMap<>();
        for (PageRank r : ranks) {
            for (int s = r.device().nextSetBit(0); s >= 0; s = r.device().nextSetBit(s + 1)) {
                byName.computeIfAbsent(r.names()[s], k -> new ArrayList<>())
                        .add(new long[] {r.tails()[s], r.exposed()[s]});
            }
        }
        List<String> labels = new ArrayList<>(byName.keySet());
        long[] tail = new long[labels.size()];
        long[] exposed = new long[labels.size()];
        for (int i = 0; i < labels.size(); i++) {
            List<long[]> v = byName.get(labels.get(i));
            tail[i] = median(v.stream().map(a -> a[0]).toList());
            exposed[i] = median(v.stream().map(a -> a[1]).toList());
        }
        return new StepChartSvg.Series(labels, tail, exposed);
    }

    /** Each rank's anchor, by its position: "rank-3", a second input of rank 3 "rank-3-2". */
    private static String[] rankIds(List<PageRank> ranks) {
        String[] ids = new String[ranks.size()];
        Map<String, Integer> used = new HashMap<>();
        for (int i = 0; i < ranks.size(); i++) {
            String base = "rank-" + ranks.get(i).rank();
            int n = used.merge(base, 1, Integer::sum);
            ids[i] = n == 1 ? base : base + "-" + n;
        }
        return ids;
    }

    /**
     * The ranks' positions in the order their detail is shown: a job's worst first, as in the
     * overview (so the opened first rank is the one to look at), a single rank as it is.
     */
    private static List<Integer> detailOrder(List<PageRank> ranks, JobOverview overview) {
        List<Integer> ordered = new ArrayList<>(ranks.size());
        for (int i = 0; i < ranks.size(); i++) {
            ordered.add(i);
        }
        if (overview == null) {
            return ordered;
        }
        Map<Integer, Integer> position = new HashMap<>();
        List<Integer> worstFirst = overview.ranksWorstFirst();
        for (int i = worstFirst.size() - 1; i >= 0; i--) {
            position.put(worstFirst.get(i), i);
        }
        ordered.sort(java.util.Comparator.comparingInt(
                i -> position.getOrDefault(ranks.get(i).rank(), Integer.MAX_VALUE)));
        return ordered;
    }

    private void ranks(PageJob job, List<Integer> order, TimelinePlan plan, int allSteps, StringBuilder sb) {
        List<PageRank> pages = job.ranks();
        List<RankReport> held = job.report().ranks();
        sb.append("<section id=\"ranks\"><h2>Timelines per rank and step</h2>");
        sb.append("<p class=\"legend\"><span><i class=\"sw\" style=\"background:var(--k)\"></i>compute</span>")
                .append("<span><i class=\"sw\" style=\"background:var(--c)\"></i>comm under compute</span>")
                .append("<span><i class=\"sw\" style=\"background:var(--x)\"></i>exposed comm</span>")
                .append("<span><i class=\"sw\" style=\"background:var(--m)\"></i>memcpy/memset</span>")
                .append(pages.stream().anyMatch(PageRank::fused)
                        ? "<span><i class=\"sw\" style=\"background:var(--f)\"></i>fused kernels (compute and "
                                + "communication inside one kernel; their inner overlap is not in the trace)</span>"
                        : "")
                .append("<span><i class=\"sw\" style=\"background:var(--t)\"></i>tail</span>")
                .append("<span>dashed: the four markers; boxes below: the tail's chain, last collective first</span></p>");
        if (plan.drawn() < plan.candidates()) {
            sb.append("<p class=\"muted omitted\">").append(plan.drawn()).append(" of ").append(plan.candidates())
                    .append(" step timelines drawn (the longest-tail and the median step of each rank first) to keep "
                            + "this file small; select steps with <code>--steps</code> to draw others.</p>");
        }
        boolean allRows = allSteps <= MAX_TABLE_ROWS;
        String[] ids = rankIds(pages);
        boolean firstOpened = false;
        for (int i = 0; i < order.size(); i++) {
            int at = order.get(i);
            // The rank's full report, read for its section alone (from the spill for a big job).
            RankReport r = job.full().full(held.get(at));
            boolean openRank = i == 0 || pages.size() <= 4;
            sb.append("<details class=\"rank\" id=\"").append(ids[at]).append('"').append(openRank ? " open" : "")
                    .append("><summary>").append(Html.esc(TextRenderer.rankHeading(r))).append(" · ")
                    .append(Html.esc(r.source())).append(" · ").append(r.format().toLowerCase(Locale.ROOT))
                    .append("</summary>");
            String where = WhereTimeWent.line(r, Html::esc);
            if (where != null) {
                sb.append("<p class=\"where\">").append(where.replace("\n  ", "<br>")).append("</p>")
                        .append(BreakdownSvg.render(r, Math.max(4, 400 / pages.size())));
            }
            for (String note : r.notes()) {
                sb.append("<p class=\"muted\">note: ").append(Html.esc(note)).append("</p>");
            }
            for (String w : r.warnings()) {
                sb.append("<p class=\"muted\">warning: ").append(Html.esc(w)).append("</p>");
            }
            stepTable(r, at, plan, allRows, ids[at], sb);
            BeyondSection.write(r, pages.size() <= OPEN_BEYOND_UP_TO, BeyondSection.rowsPerTable(pages.size()), sb);
            if (pages.size() > 1 && r.steps().size() > 1) {
                sb.append(StepChartSvg.render(jobSeries(List.of(pages.get(at))),
                        "tail and exposed communication per step, rank " + r.rank()));
            }
            for (StepReport s : plan.drawnOf(at, r)) {
                boolean open = plan.drawn() <= OPEN_ALL_UP_TO || !firstOpened;
                firstOpened = true;
                String id = stepId(ids[at], r, s);
                sb.append("<a class=\"focus\" id=\"only-").append(id).append("\"></a>");
                sb.append("<details class=\"step\" id=\"").append(id).append('"')
                        .append(open ? " open" : "").append("><summary>").append(Html.esc(stepLine(s)))
                        .append("</summary>").append(TimelineSvg.render(job.index().of(r, s)));
                if (s.tailNs() != null && s.tailNs() > 0 && !s.attribution().chain().isEmpty()) {
                    sb.append("<p class=\"muted\">tail chain: ").append(Html.esc(TextRenderer.chain(s)))
                            .append("</p>");
                }
                sb.append("</details>");
            }
            sb.append("</details>\n");
        }
        sb.append("</section>\n");
    }

    private static String stepId(String rankId, RankReport r, StepReport s) {
        return rankId + "-step-" + r.steps().indexOf(s);
    }

    private static String stepLine(StepReport s) {
        StringBuilder b = new StringBuilder(s.name());
        if (s.partial()) {
            b.append(" (partial)");
        }
        b.append(": step ").append(Units.ms(s.stepTimeNs())).append(" ms");
        if (s.tailNs() != null) {
            b.append(", tail ").append(Units.ms(s.tailNs())).append(" ms");
            if (s.tailNs() > 0) {
                b.append(" (").append(s.attribution().kind()).append(')');
            }
        }
        b.append(", exposed comm ").append(Units.ms(s.exposedCommNs())).append(" ms, overlap ")
                .append(Units.pct(s.overlapRatio()));
        return b.toString();
    }

    /** The waiting part of the step's exposed communication and where it comes from (metrics.md §12), or "-". */
    private static String waiting(StepReport s) {
        var c = s.commSplit();
        return c == null || !c.known() ? "-" : Units.ms(c.waitNs()) + " (" + Html.esc(String.valueOf(c.source())) + ")";
    }

    private static void stepTable(RankReport r, int at, TimelinePlan plan, boolean allRows, String rankId,
                                  StringBuilder sb) {
        if (r.steps().isEmpty()) {
            return;
        }
        sb.append("<p class=\"muted\">markers in ms after the step's first device activity</p>")
                .append("<div class=\"tw\"><table class=\"steps\"><tr><th class=\"l\">step</th><th>time ms</th><th>first ready</th>"
                        + "<th>reduce start</th><th>last compute end</th><th>last reduce end</th><th>tail ms</th>"
                        + "<th class=\"l\">cause</th><th>exposed comm ms</th><th>of it waiting ms</th><th>overlap</th></tr>");
        int left = 0;
        List<StepReport> steps = r.steps();
        for (int i = 0; i < steps.size(); i++) {
            StepReport s = steps.get(i);
            boolean drawn = plan.isDrawn(at, i);
            if (!allRows && !drawn && !plan.isFeatured(at, i)) {
                left++;
                continue;
            }
            var m = s.markers();
            sb.append("<tr").append(s.partial() ? " class=\"partial\"" : "").append("><td class=\"l\">");
            if (drawn) {
                sb.append("<a href=\"#").append(stepId(rankId, r, s)).append("\">").append(Html.esc(s.name()))
                        .append("</a>");
            } else {
                sb.append(Html.esc(s.name()));
            }
            sb.append(s.partial() ? "*" : "").append("</td><td>").append(Units.ms(s.stepTimeNs())).append("</td><td>")
                    .append(Units.rel(m.firstBucketReadyNs(), s.deviceStartNs())).append("</td><td>")
                    .append(Units.rel(m.reduceStartNs(), s.deviceStartNs())).append("</td><td>")
                    .append(Units.rel(m.lastComputeEndNs(), s.deviceStartNs())).append("</td><td>")
                    .append(Units.rel(m.lastReduceEndNs(), s.deviceStartNs())).append("</td><td>")
                    .append(Units.ms(s.tailNs())).append("</td><td class=\"l\">")
                    .append(s.tailNs() == null ? "-" : s.attribution().kind().name()).append("</td><td>")
                    .append(Units.ms(s.exposedCommNs())).append("</td><td>").append(waiting(s)).append("</td><td>")
                    .append(Units.pct(s.overlapRatio())).append("</td></tr>");
        }
        sb.append("</table></div>");
        if (left > 0) {
            sb.append("<p class=\"muted\">").append(left).append(" more steps not listed to keep this file small; "
                    + "<code>-f json</code> has every step.</p>");
        }
    }

    /** The findings first (metrics.md §13): what to change, ranked by what it could save per step. */
    private static void findings(PageJob job, String tag, String heading, StringBuilder sb) {
        AnalysisReport report = job.report();
        sb.append('<').append(tag).append(" id=\"findings\"><").append(heading).append('>')
                .append(Html.esc(FindingsView.TITLE)).append("</").append(heading).append('>');
        if (report.findings().isEmpty()) {
            sb.append("<p>").append(Html.esc(report.ranks().isEmpty() ? "No rank traces found."
                    : FindingsView.none(report, job.full()))).append("</p></").append(tag).append(">\n");
            return;
        }
        sb.append("<ol class=\"findings\">");
        for (Finding f : report.findings()) {
            String where = FindingsView.ranks(f);
            sb.append("<li><p><strong>").append(Html.esc(f.kind())).append("</strong>: ")
                    .append(Html.esc(FindingsView.saving(f))).append(where.isEmpty() ? "" : ", " + Html.esc(where))
                    .append("</p><p class=\"evidence\"><bdi>").append(Html.esc(f.evidence()))
                    .append("</bdi></p><p class=\"action\">Change: ").append(Html.esc(f.action()))
                    .append("</p></li>");
        }
        sb.append("</ol></").append(tag).append(">\n");
    }
}
