package io.overlapanalyze.render.html;

import io.overlapanalyze.render.units.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the page can say across ranks from the per-rank results alone: rank × step heatmaps of
 * the tail and of exposed communication, and the ranks with the longest median tail. Clock
 * offsets, mismatches and waits need the cross-rank analysis; alone (a report without it), the
 * section says so. {@link CrossRankReportSection} ends with this comparison.
 */
public final class RankComparisonSection implements CrossRankSection {
    private static final int TOP_RANKS = 10;

    @Override
    public void write(PageJob job, StringBuilder html) {
        html.append("<p class=\"muted\">Clock offsets, collective mismatches and per-collective waits need the "
                + "cross-rank analysis, which this report does not have; below, the ranks' own results side by "
                + "side.</p>");
        writeComparison(job.ranks(), html);
    }

    /** The rank × step heatmaps of tail and exposed communication, and the longest median tails. */
    void writeComparison(List<PageRank> ranks, StringBuilder html) {
        Map<String, Integer> stepColumn = new LinkedHashMap<>();
        for (PageRank r : ranks) {
            for (String name : r.names()) {
                stepColumn.putIfAbsent(name, stepColumn.size());
            }
        }
        if (!stepColumn.isEmpty()) {
            List<String> rows = new ArrayList<>();
            long[][] tail = new long[ranks.size()][stepColumn.size()];
            long[][] exposed = new long[ranks.size()][stepColumn.size()];
            for (int i = 0; i < ranks.size(); i++) {
                PageRank r = ranks.get(i);
                rows.add("rank " + r.rank());
                java.util.Arrays.fill(tail[i], -1);
                java.util.Arrays.fill(exposed[i], -1);
                for (int s = 0; s < r.steps(); s++) {
                    int c = stepColumn.get(r.names()[s]);
                    tail[i][c] = r.tails()[s];
                    exposed[i][c] = r.device().get(s) ? r.exposed()[s] : -1;
                }
            }
            List<String> cols = new ArrayList<>(stepColumn.keySet());
            html.append("<h4>Tail per rank and step</h4>").append(Heatmap.render(rows, cols, tail, "tail"));
            html.append("<h4>Exposed communication per rank and step</h4>")
                    .append(Heatmap.render(rows, cols, exposed, "exposed comm"));
        }
        List<PageRank> byTail = new ArrayList<>(ranks);
        byTail.sort(Comparator.comparingLong(RankComparisonSection::medianTail).reversed());
        html.append("<h4>Longest median tail</h4><div class=\"tw\"><table><tr><th class=\"l\">rank</th><th>median tail ms</th>"
                + "<th>median exposed comm ms</th><th>median step ms</th><th class=\"l\">cause</th></tr>");
        for (PageRank r : byTail.subList(0, Math.min(TOP_RANKS, byTail.size()))) {
            var md = r.medians();
            html.append("<tr><td class=\"l\"><a href=\"#rank-").append(r.rank()).append("\">rank ").append(r.rank())
                    .append("</a></td><td>").append(md == null ? "-" : Units.ms(md.tailNs())).append("</td><td>")
                    .append(md == null ? "-" : Units.ms(md.exposedCommNs())).append("</td><td>")
                    .append(md == null ? "-" : Units.ms(md.stepTimeNs())).append("</td><td class=\"l\">")
                    .append(r.dominantCause() == null ? "-" : r.dominantCause()).append("</td></tr>");
        }
        html.append("</table></div>");
    }

    private static long medianTail(PageRank r) {
        if (r.medians() == null || r.medians().tailNs() == null) {
            return -1;
        }
        return r.medians().tailNs();
    }
}
