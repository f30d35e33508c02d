package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.BandwidthByType;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.RankRanges;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.MatchedCollective;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.SkewSummary;
import io.overlapanalyze.report.StepTail;
import io.overlapanalyze.report.Straggler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's "Across ranks" section from the cross-rank analysis (metrics.md §8, §9): the facts
 * of the text report's cross-rank section as tables, plus a clock-offset bar chart and a rank ×
 * collective wait heatmap, followed by the ranks' own results side by side
 * ({@link RankComparisonSection}). A report without the analysis falls back to the latter alone.
 *
 * <p>Big jobs stay small: long lists (offsets, stragglers, mismatches, tails per step) show their
 * first rows and put the rest in a collapsed {@code <details>}, capped at {@link #MAX_LIST} rows
 * (the JSON report has every row); the heatmap and the offset chart are binned.
 */
public final class CrossRankReportSection implements CrossRankSection {
    /** Rows shown before "show all". */
    static final int SHOWN = 12;
    /** At most this many rows of one list in the page. */
    static final int MAX_LIST = 1000;
    /** Mismatches whose per-rank values are listed. */
    static final int MAX_MISMATCH_DETAILS = 20;
    /** Bars of the offset chart; more ranks are binned. */
    static final int MAX_BARS = 256;

    private final RankComparisonSection perRank = new RankComparisonSection();

    @Override
    public void write(PageJob job, StringBuilder html) {
        CrossRankReport x = job.report().crossRank();
        if (x == null) {
            perRank.write(job, html);
            return;
        }
        html.append("<div class=\"xrank\"><p>").append(Html.esc(header(x))).append("</p>");
        inputs(x, html);
        mismatches(x, html);
        clocks(x, html);
        groups(x, html);
        skew(x.skew(), html);
        stragglers(x, html);
        waitHeatmap(x, html);
        bandwidth(x, html);
        worstTails(x, html);
        if (!x.notes().isEmpty()) {
            html.append("<h3 id=\"xr-notes\">Notes</h3><ul class=\"notes\">");
            for (String n : x.notes()) {
                html.append("<li>").append(Html.esc(n)).append("</li>");
            }
            html.append("</ul>");
        }
        html.append("<h3 id=\"xr-per-rank\">Each rank's own results side by side</h3>");
        perRank.writeComparison(job.ranks(), html);
        html.append("</div>");
    }

    private static String header(CrossRankReport x) {
        StringBuilder b = new StringBuilder().append(x.ranks().size()).append(x.ranks().size() == 1 ? " rank" : " ranks")
                .append(" compared (").append(ranges(x.ranks())).append(')');
        if (x.worldSize() != null) {
            b.append(" of a job of ").append(x.worldSize());
        }
        if (!x.missingRankRanges().isEmpty()) {
            b.append("; no input holds rank").append(RankRanges.count(x.missingRankRanges()) == 1 ? " " : "s ")
                    .append(RankRanges.text(x.missingRankRanges(), "–", true));
        }
        return b.append('.').toString();
    }

    private static void inputs(CrossRankReport x, StringBuilder html) {
        if (x.inputProblems().isEmpty()) {
            return;
        }
        html.append("<h3 id=\"xr-inputs\">Inputs left out</h3><div class=\"tw\"><table class=\"inputs\"><tr><th class=\"l\">file</th>"
                + "<th>rank</th><th class=\"l\">kind</th><th class=\"l\">why</th></tr>");
        for (InputProblem p : x.inputProblems()) {
            html.append("<tr><td class=\"l src\">").append(Html.esc(p.file())).append("</td><td>")
                    .append(p.rank() == null ? "-" : p.rank()).append("</td><td class=\"l\">").append(Html.esc(p.kind()))
                    .append("</td><td class=\"l wrap\">").append(Html.esc(p.message())).append("</td></tr>");
        }
        html.append("</table></div>");
    }

    // --- mismatches ------------------------------------------------------------------------------

    private static void mismatches(CrossRankReport x, StringBuilder html) {
        html.append("<h3 id=\"xr-mismatches\">Collective mismatches</h3>");
        List<Mismatch> all = x.mismatches();
        if (all.isEmpty()) {
            html.append("<p class=\"ok mismatches-none\">None: every group's ranks issued the same collectives "
                    + "(type, size, dtype) in the same order.</p>");
            return;
        }
        long errors = all.stream().filter(m -> m.severity() == Mismatch.Severity.ERROR).count();
        long missing = all.stream().filter(m -> m.kind() == Mismatch.MismatchKind.MISSING).count();
        html.append("<p class=\"").append(errors > 0 ? "sev-error" : "sev-warning").append(" banner\">")
                .append(all.size()).append(all.size() == 1 ? " mismatch" : " mismatches").append(" (").append(errors)
                .append(" error").append(errors == 1 ? "" : "s").append(", ").append(all.size() - errors)
                .append(" warning").append(all.size() - errors == 1 ? "" : "s").append(')');
        if (missing > 0) {
            html.append("; ").append(missing).append(" missing on some rank: <b>likely hang</b>");
        }
        html.append(". ERROR: the traces name the process group, so the ranks really diverged; WARNING: the group is "
                + "inferred from issue order, check before trusting it.</p>");
        html.append("<div class=\"tw\"><table class=\"mismatches\"><tr><th class=\"l\">severity</th><th class=\"l\">kind</th>"
                + "<th class=\"l\">group</th><th>index</th><th class=\"l\">step</th><th class=\"l\">culprit ranks</th>"
                + "<th>later too</th><th class=\"l\">what</th></tr>");
        int n = Math.min(all.size(), MAX_LIST);
        for (int i = 0; i < n; i++) {
            if (i == SHOWN) {
                html.append("</table></div><details class=\"more\"><summary>all ").append(all.size())
                        .append(" mismatches</summary><div class=\"tw\"><table class=\"mismatches more\">");
            }
            mismatchRow(all.get(i), html);
        }
        html.append("</table></div>");
        if (n > SHOWN) {
            html.append("</details>");
        }
        left(all.size() - n, "mismatches", html);
        for (int i = 0; i < Math.min(all.size(), MAX_MISMATCH_DETAILS); i++) {
            rankValues(all.get(i), html);
        }
    }

    private static void mismatchRow(Mismatch m, StringBuilder html) {
        String sev = m.severity().name().toLowerCase(Locale.ROOT);
        html.append("<tr class=\"mismatch sev-").append(sev).append("\" data-kind=\"").append(m.kind())
                .append("\" data-severity=\"").append(m.severity()).append("\" data-group=\"").append(Html.esc(m.group()))
                .append("\" data-index=\"").append(m.index()).append("\"><td class=\"l\"><b>").append(m.severity())
                .append("</b></td><td class=\"l\">").append(m.kind())
                .append(m.kind() == Mismatch.MismatchKind.MISSING ? " (likely hang)" : "").append("</td><td class=\"l\">")
                .append(Html.esc(m.group())).append("</td><td>").append(m.index()).append("</td><td class=\"l\">")
                .append(m.step() == null ? "-" : Html.esc(m.step())).append("</td><td class=\"l\">")
                .append(m.culprits().isEmpty() ? "-" : ranges(m.culprits())).append("</td><td>").append(m.following())
                .append("</td><td class=\"l wrap\">").append(Html.esc(m.message())).append("</td></tr>");
    }

    /** What each rank had at the mismatch's position, collapsed. */
    private static void rankValues(Mismatch m, StringBuilder html) {
        html.append("<details class=\"mismatch-ranks\"><summary>").append(m.severity()).append(' ').append(m.kind())
                .append(" at group ").append(Html.esc(m.group())).append(" index ").append(m.index())
                .append(": each rank's collective there</summary><div class=\"tw\"><table><tr><th>rank</th><th class=\"l\">type</th>"
                        + "<th>in elements</th><th>out elements</th><th class=\"l\">dtype</th><th class=\"l\">thread</th>"
                        + "<th>issued in group</th></tr>");
        int shown = 0;
        for (Mismatch.RankValues v : m.ranks()) {
            if (shown++ == MAX_LIST) {
                break;
            }
            html.append("<tr").append(m.culprits().contains(v.rank()) ? " class=\"culprit\"" : "").append("><td>")
                    .append(v.rank()).append("</td><td class=\"l\">")
                    .append(v.present() ? Html.esc(v.type()) : "<b>none (missing)</b>").append("</td><td>")
                    .append(v.inElements() == null ? "-" : v.inElements()).append("</td><td>")
                    .append(v.outElements() == null ? "-" : v.outElements()).append("</td><td class=\"l\">")
                    .append(v.dtype() == null ? "-" : Html.esc(v.dtype())).append("</td><td class=\"l\">")
                    .append(v.thread() == null ? "-" : Html.esc(v.thread())).append("</td><td>").append(v.issued())
                    .append("</td></tr>");
        }
        html.append("</table></div></details>");
    }

    // --- clocks ----------------------------------------------------------------------------------

    private static void clocks(CrossRankReport x, StringBuilder html) {
        html.append("<h3 id=\"xr-clocks\">Clock offsets</h3>");
        if (!x.clock().aligned()) {
            html.append("<p class=\"muted\">").append(Html.esc(x.clock().note())).append("</p>");
            return;
        }
        html.append("<p>Each rank's clock minus the mean clock (matched collectives end together, so their ends "
                        + "give the offsets): ").append(Html.esc(x.clock().note())).append(". Largest residual after alignment ")
                .append(Html.esc(Units.signedUs(x.clock().maxResidualNs()).substring(1)))
                .append(". Arrivals and waits below use the aligned clocks.</p>");
        html.append(OffsetChart.render(x.clockOffsetsNs()));
        List<Map.Entry<Integer, Long>> rows = new ArrayList<>(x.clockOffsetsNs().entrySet());
        boolean collapse = rows.size() > SHOWN;
        if (collapse) {
            html.append("<details class=\"more\"><summary>offsets of all ").append(rows.size())
                    .append(" ranks</summary>");
        }
        html.append("<div class=\"tw\"><table class=\"offsets\"><tr><th>rank</th><th>offset</th></tr>");
        for (Map.Entry<Integer, Long> e : rows) {
            html.append("<tr data-rank=\"").append(e.getKey()).append("\" data-ns=\"").append(e.getValue())
                    .append("\"><td>").append(e.getKey()).append("</td><td>").append(Html.esc(Units.signedUs(e.getValue())))
                    .append("</td></tr>");
        }
        html.append("</table></div>");
        if (collapse) {
            html.append("</details>");
        }
    }

    // --- groups and skew -------------------------------------------------------------------------

    private static void groups(CrossRankReport x, StringBuilder html) {
        if (x.groups().isEmpty()) {
            return;
        }
        html.append("<h3 id=\"xr-groups\">Process groups</h3><div class=\"tw\"><table class=\"groups\"><tr><th class=\"l\">group</th>"
                + "<th class=\"l\">ranks</th><th class=\"l\">matched by</th><th>matched on every rank</th>"
                + "<th class=\"l\">issued per rank</th></tr>");
        for (GroupSummary g : x.groups()) {
            html.append("<tr><td class=\"l\">").append(Html.esc(g.group())).append(g.inferred() ? " (inferred)" : "")
                    .append("</td><td class=\"l\">").append(ranges(g.members())).append("</td><td class=\"l\">")
                    .append(g.matchedBy().toLowerCase(Locale.ROOT).replace('_', ' ')).append("</td><td>")
                    .append(g.matched()).append(g.leftOutFrom() == null ? ""
                            : " (pairing stops at " + ("SEQUENCE".equals(g.matchedBy()) ? "Seq " : "index ")
                            + g.leftOutFrom() + ")")
                    .append("</td><td class=\"l wrap\">").append(Html.esc(counts(g.counts())))
                    .append("</td></tr>");
        }
        html.append("</table></div>");
    }

    /** "120 each", or "120 on ranks 0–2, 119 on rank 3". */
    private static String counts(Map<Integer, Integer> counts) {
        Map<Integer, List<Integer>> byCount = new java.util.TreeMap<>(Comparator.reverseOrder());
        counts.forEach((rank, n) -> byCount.computeIfAbsent(n, k -> new ArrayList<>()).add(rank));
        if (byCount.size() == 1) {
            return byCount.keySet().iterator().next() + " each";
        }
        List<String> parts = new ArrayList<>();
        byCount.forEach((n, ranks) -> parts.add(n + " on rank" + (ranks.size() == 1 ? " " : "s ") + ranges(ranks)));
        return String.join(", ", parts);
    }

    private static void skew(SkewSummary s, StringBuilder html) {
        html.append("<h3 id=\"xr-skew\">Arrival skew</h3><p class=\"skew\">");
        if (s.timed() == 0) {
            html.append("No collective has device times on every rank.</p>");
            return;
        }
        if (s.medianSkewNs() == null) {
            html.append(s.timed()).append(" timed collectives. No arrival skew or waits: the clocks or the pairing "
                    + "do not allow them (see the notes). End skew median ").append(Units.ms(s.medianEndSkewNs()))
                    .append(" ms after alignment.</p>");
            return;
        }
        html.append(s.timed()).append(" timed collectives. Arrival skew (latest − earliest arrival): median <b>")
                .append(Units.ms(s.medianSkewNs())).append(" ms</b>, max <b>").append(Units.ms(s.maxSkewNs()))
                .append(" ms</b> at group ").append(Html.esc(s.worstGroup())).append(" index ").append(s.worstIndex())
                .append(' ').append(Html.esc(s.worstType())).append(s.worstStep() == null ? "" : " in " + Html.esc(s.worstStep()))
                .append(s.worstLastRank() == null ? "" : ", rank " + s.worstLastRank() + " last")
                .append(". End skew median ").append(Units.ms(s.medianEndSkewNs()))
                .append(" ms after alignment (near 0 when the clocks are well aligned). All ranks together waited ")
                .append(Units.ms(s.totalWaitNs())).append(" ms for peers.</p>");
    }

    // --- stragglers ------------------------------------------------------------------------------

    private static void stragglers(CrossRankReport x, StringBuilder html) {
        if (x.stragglers().isEmpty()) {
            return;
        }
        html.append("<h3 id=\"xr-stragglers\">Stragglers</h3><p class=\"muted\">Most waited-for first; ms summed "
                + "over all matched collectives. <i>Waited for</i>: the time the others waited on this rank alone "
                + "(it arrived last); <i>own wait</i>: the time it waited for others; <i>of it waiting</i>: the part of "
                + "its exposed communication spent waiting for peers rather than transferring.</p>");
        List<Straggler> all = x.stragglers();
        int n = Math.min(all.size(), MAX_LIST);
        String head = "<tr><th>rank</th><th>waited for ms</th><th>times last</th><th>own wait ms</th>"
                + "<th>exposed comm ms</th><th>of it waiting ms</th><th>waiting share</th></tr>";
        html.append("<div class=\"tw\"><table class=\"stragglers\">").append(head);
        for (int i = 0; i < n; i++) {
            if (i == SHOWN) {
                html.append("</table></div><details class=\"more\"><summary>all ").append(all.size())
                        .append(" ranks</summary><div class=\"tw\"><table class=\"stragglers more\">").append(head);
            }
            Straggler s = all.get(i);
            html.append("<tr data-rank=\"").append(s.rank()).append("\"><td><a href=\"#rank-").append(s.rank())
                    .append("\">").append(s.rank()).append("</a></td><td>").append(Units.ms(s.waitedForNs()))
                    .append("</td><td>").append(s.timesArrivedLast()).append("</td><td>").append(Units.ms(s.totalWaitNs()))
                    .append("</td><td>").append(Units.ms(s.exposedCommNs())).append("</td><td>")
                    .append(Units.ms(s.exposedWaitNs())).append("</td><td>").append(Units.pct(s.exposedWaitShare()))
                    .append("</td></tr>");
        }
        html.append("</table></div>");
        if (n > SHOWN) {
            html.append("</details>");
        }
        left(all.size() - n, "ranks", html);
    }

    // --- wait heatmap ----------------------------------------------------------------------------

    private static void waitHeatmap(CrossRankReport x, StringBuilder html) {
        List<MatchedCollective> timed = x.collectives().stream().filter(c -> c.waitsNs() != null).toList();
        html.append("<h3 id=\"xr-waits\">Wait per rank and collective</h3>");
        if (timed.isEmpty() || x.ranks().size() < 2) {
            html.append("<p class=\"muted\">No matched collective has device times on every rank.</p>");
            return;
        }
        Map<Integer, Integer> row = new HashMap<>();
        List<String> rows = new ArrayList<>();
        for (int r : x.ranks()) {
            row.put(r, rows.size());
            rows.add("rank " + r);
        }
        List<String> cols = new ArrayList<>();
        long[][] v = new long[rows.size()][timed.size()];
        for (long[] line : v) {
            java.util.Arrays.fill(line, -1);
        }
        for (int c = 0; c < timed.size(); c++) {
            MatchedCollective m = timed.get(c);
            cols.add((x.groups().size() > 1 ? m.group() + " " : "") + "#" + m.index()
                    + (m.step() == null ? "" : " " + m.step()));
            for (Map.Entry<Integer, Long> e : m.waitsNs().entrySet()) {
                Integer r = row.get(e.getKey());
                if (r != null) {
                    v[r][c] = e.getValue();
                }
            }
        }
        boolean binned = rows.size() > Heatmap.MAX_ROWS || cols.size() > Heatmap.MAX_COLS;
        html.append("<p class=\"muted\">One row per rank, one column per matched collective (").append(timed.size())
                .append(", in each group's issue order").append(x.groups().size() > 1 ? ", group after group" : "")
                .append("). A cell is <i>wait</i>: the latest arrival at that collective minus this rank's arrival "
                        + "(aligned clocks), the time the rank sat in it waiting for the last peer. A dark column is a "
                        + "collective someone arrived late to; the late rank's own cell stays light. Grey: the rank "
                        + "is not in that collective's group.");
        if (binned) {
            html.append(" Too many to draw one by one: ")
                    .append(rows.size() > Heatmap.MAX_ROWS ? "ranks are binned (" + Heatmap.MAX_ROWS + " rows)" : "")
                    .append(rows.size() > Heatmap.MAX_ROWS && cols.size() > Heatmap.MAX_COLS ? " and " : "")
                    .append(cols.size() > Heatmap.MAX_COLS ? "collectives are binned (" + Heatmap.MAX_COLS + " columns)"
                            : "")
                    .append(", each cell showing the largest wait of its bin; the straggler table names the rank.");
        }
        html.append("</p>").append(Heatmap.render(rows, cols, v, "wait", "waits"));
    }

    // --- bandwidth and tails ---------------------------------------------------------------------

    private static void bandwidth(CrossRankReport x, StringBuilder html) {
        if (x.bandwidth().isEmpty()) {
            return;
        }
        html.append("<h3 id=\"xr-bandwidth\">Bandwidth per collective type</h3><p class=\"muted\">nccl-tests "
                + "conventions, decimal GB/s; transfer = the shortest duration over ranks (waiting excluded).</p>"
                + "<div class=\"tw\"><table class=\"bandwidth\"><tr><th class=\"l\">type</th><th>count</th><th>with size</th>"
                + "<th>bytes</th><th>transfer ms</th><th>algbw GB/s</th><th>busbw GB/s</th><th>median busbw</th></tr>");
        for (BandwidthByType b : x.bandwidth()) {
            html.append("<tr><td class=\"l\">").append(Html.esc(b.type())).append("</td><td>").append(b.count())
                    .append("</td><td>").append(b.withSize()).append("</td><td>")
                    .append(b.withSize() == 0 ? "?" : Units.bytes(b.bytes())).append("</td><td>")
                    .append(b.withSize() == 0 ? "-" : Units.ms(b.transferNs())).append("</td><td>")
                    .append(Units.gbps(b.algBwGBps())).append("</td><td>").append(Units.gbps(b.busBwGBps())).append("</td><td>")
                    .append(Units.gbps(b.medianBusBwGBps())).append("</td></tr>");
        }
        html.append("</table></div>");
    }

    private static void worstTails(CrossRankReport x, StringBuilder html) {
        List<StepTail> all = x.worstTails();
        if (all.isEmpty()) {
            return;
        }
        html.append("<h3 id=\"xr-tails\">Worst tail per step</h3><p class=\"muted\">Every rank's optimizer waits "
                + "for the longest tail of the step.</p>");
        String head = "<tr><th class=\"l\">step</th><th>worst rank</th><th>tail ms</th><th class=\"l\">cause</th>"
                + "<th>min tail ms</th><th>ranks</th></tr>";
        List<StepTail> first = all;
        if (all.size() > SHOWN) {
            first = all.stream().sorted(Comparator.comparingLong(StepTail::tailNs).reversed()).limit(SHOWN).toList();
            html.append("<p>The ").append(SHOWN).append(" longest of ").append(all.size()).append(" steps:</p>");
        }
        html.append("<div class=\"tw\"><table class=\"tails\">").append(head);
        first.forEach(t -> tailRow(t, html));
        html.append("</table></div>");
        if (all.size() > SHOWN) {
            int n = Math.min(all.size(), MAX_LIST);
            html.append("<details class=\"more\"><summary>all ").append(all.size())
                    .append(" steps in order</summary><div class=\"tw\"><table class=\"tails more\">").append(head);
            all.subList(0, n).forEach(t -> tailRow(t, html));
            html.append("</table></div></details>");
            left(all.size() - n, "steps", html);
        }
    }

    private static void tailRow(StepTail t, StringBuilder html) {
        html.append("<tr data-step=\"").append(Html.esc(t.step())).append("\"><td class=\"l\">").append(Html.esc(t.step()))
                .append("</td><td><a href=\"#rank-").append(t.worstRank()).append("\">").append(t.worstRank())
                .append("</a></td><td>").append(Units.ms(t.tailNs())).append("</td><td class=\"l\">")
                .append(Html.esc(t.kind())).append("</td><td>").append(Units.ms(t.minTailNs())).append("</td><td>")
                .append(t.ranks()).append("</td></tr>");
    }

    // --- helpers ---------------------------------------------------------------------------------

    private static void left(int more, String what, StringBuilder html) {
        if (more > 0) {
            html.append("<p class=\"muted\">").append(more).append(" more ").append(what)
                    .append(" not listed to keep this file small; <code>-f json</code> has them all.</p>");
        }
    }

    /** Ascending runs as ranges: "0–3, 5, 7–9". */
    static String ranges(List<Integer> values) {
        List<Integer> v = values.stream().sorted().distinct().toList();
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < v.size()) {
            int j = i;
            while (j + 1 < v.size() && v.get(j + 1) == v.get(j) + 1) {
                j++;
            }
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(v.get(i));
            if (j > i) {
                b.append(j == i + 1 ? ", " : "–").append(v.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }
}
