package io.overlapanalyze.render.html;

import io.overlapanalyze.render.JobSection;
import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.RankRow;
import io.overlapanalyze.render.overview.ReportLayout;

import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A job's page opens here: the text overview's lines ({@link JobSection#lines}: what was read, the
 * step period across ranks, the cross-rank ERRORs as red banners), the findings, the ranks' picture
 * ({@link RankDistributionSvg}), and the rank table with the text's rows in the text's order,
 * capped as the text caps it ({@code --rank-rows}). So the page, the text and the markdown cannot
 * disagree about the job.
 */
final class JobOverviewSection {
    /** Columns of {@link JobSection#HEADER} that hold words (left-aligned). */
    private static final Set<Integer> TEXT_COLUMNS = Set.of(7, 9);

    private JobOverviewSection() {
    }

    /**
     * @param findings writes the findings (their heading and list) where they belong in the overview
     */
    static void write(JobOverview o, ReportLayout layout, Runnable findings, StringBuilder sb) {
        sb.append("<section id=\"job\"><h2>The job at a glance</h2>");
        // Each line escaped whole, once: names from the input (groups, steps, formats) included.
        for (String line : JobSection.lines(o, UnaryOperator.identity())) {
            if (line.startsWith("ERROR ")) {
                sb.append("<p class=\"banner sev-error job-error\">").append(Html.esc(line)).append("</p>");
            } else {
                sb.append("<p class=\"job-line\">").append(Html.esc(line)).append("</p>");
            }
        }
        findings.run();
        String picture = RankDistributionSvg.render(o);
        if (picture != null) {
            sb.append("<h3 id=\"rank-picture\">Ranks at a glance</h3><p class=\"legend\">")
                    .append("<span><i class=\"sw\" style=\"background:var(--k)\"></i>median step period</span>")
                    .append("<span><i class=\"sw\" style=\"background:#f28e2b\"></i>straggler</span>")
                    .append("<span><i class=\"sw\" style=\"background:#c62828\"></i>named by a cross-rank ERROR</span>")
                    .append("<span><i class=\"sw\" style=\"background:#a8a8a8\"></i>idle</span>")
                    .append("<span><i class=\"sw\" style=\"background:var(--x)\"></i>exposed comm</span>")
                    .append("<span class=\"muted\">marked ranks: ▲ and their id</span></p>")
                    .append(picture);
        }
        String noSteps = JobSection.noSteps(o);
        if (noSteps != null) {
            // Nothing to rank by: the text report's line, not a table of dashes.
            sb.append("<p class=\"no-steps\">").append(Html.esc(noSteps)).append("</p></section>\n");
            return;
        }
        sb.append("<h3 id=\"rank-table\">").append(Html.esc(capitalised(JobSection.title(o, layout)))).append("</h3>");
        sb.append("<div class=\"tw\"><table class=\"job-ranks\"><tr>");
        for (int c = 0; c < JobSection.HEADER.length; c++) {
            sb.append(TEXT_COLUMNS.contains(c) ? "<th class=\"l\">" : "<th>").append(Html.esc(JobSection.HEADER[c]))
                    .append("</th>");
        }
        sb.append("</tr>");
        List<String[]> rows = JobSection.rows(o, layout);
        for (int i = 0; i < rows.size(); i++) {
            RankRow r = o.rows().get(i);
            String[] cells = rows.get(i);
            sb.append("<tr data-rank=\"").append(r.rank()).append('"');
            if (r.error() || r.straggler()) {
                sb.append(" class=\"").append(r.error() ? "sev-error" : "straggler").append('"');
            }
            sb.append("><td><a href=\"#rank-").append(r.rank()).append("\">").append(Html.esc(cells[0]))
                    .append("</a></td>");
            for (int c = 1; c < cells.length; c++) {
                sb.append(TEXT_COLUMNS.contains(c) ? "<td class=\"l\">" : "<td>").append(Html.esc(cells[c]))
                        .append("</td>");
            }
            sb.append("</tr>");
        }
        sb.append("</table></div>");
        String more = JobSection.more(o, layout);
        if (more != null) {
            sb.append("<p class=\"muted more-ranks\">").append(Html.esc(more)).append("</p>");
        }
        sb.append("</section>\n");
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
