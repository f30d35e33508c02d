package io.overlapanalyze.render.html;

import io.overlapanalyze.render.BeyondView;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnnotationReport;
import io.overlapanalyze.report.ContentionReport;
import io.overlapanalyze.report.LaunchReport;
import io.overlapanalyze.report.NotAvailable;
import io.overlapanalyze.report.Parallelism;
import io.overlapanalyze.report.PipelineReport;
import io.overlapanalyze.report.PrefetchReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Per rank, the "Beyond DDP" sections in the page: the same content as
 * {@link io.overlapanalyze.render.BeyondView} gives the text and markdown reports, as compact
 * tables. Every section the trace cannot fill is one {@code p.na} line "not available: why",
 * never zeros.
 *
 * <p>Exact values travel in data attributes ({@code data-ns}, {@code data-bytes}) next to the
 * rounded text, as in the timelines. Big jobs stay small: per-step tables show {@link #SHOWN}
 * rows with the rest behind a collapsed {@code <details>}, at most {@link #rowsPerTable(int)} rows
 * in all: {@link #MAX_ROWS} for a few ranks, fewer as ranks grow so the blocks of all ranks
 * together hold about {@link #ROW_BUDGET} rows per table ({@code -f json} has every one); the
 * contention table shows the top {@link #TOP_KERNELS} kernels
 * and collapses the rest; the memory sparkline is binned (maximum per bin) above
 * {@link #SPARK_POINTS} steps.
 */
final class BeyondSection {
    static final int SHOWN = 12;
    static final int MAX_ROWS = 200;
    static final int ROW_BUDGET = 800;
    static final int TOP_KERNELS = 10;
    static final int SPARK_POINTS = 200;

    private BeyondSection() {
    }

    /** Rows listed per per-step table of each rank's block when the report has {@code ranks} ranks. */
    static int rowsPerTable(int ranks) {
        return Math.max(SHOWN, Math.min(MAX_ROWS, ROW_BUDGET / Math.max(1, ranks)));
    }

    /**
     * The block of one rank, opened when {@code open} (small reports), else collapsed; per-step
     * tables list at most {@code maxRows} rows.
     */
    static void write(RankReport r, boolean open, int maxRows, StringBuilder sb) {
        NotAvailable na = r.notAvailable() == null ? NotAvailable.none() : r.notAvailable();
        sb.append("<details class=\"beyond\" data-rank=\"").append(r.rank()).append('"').append(open ? " open" : "")
                .append("><summary>Beyond DDP: ")
                .append(Html.esc(summaryLine(r, na))).append("</summary>");
        parallelism(r.parallelism(), sb);
        annotations(r, maxRows, sb);
        prefetch(r, na, maxRows, sb);
        pipeline(r, na, maxRows, sb);
        launch(r, na, maxRows, sb);
        contention(r, na, maxRows, sb);
        memory(r, na, maxRows, sb);
        sb.append("</details>");
    }

    /** What the block holds, so a collapsed block still says whether it is worth opening. */
    private static String summaryLine(RankReport r, NotAvailable na) {
        List<String> parts = new ArrayList<>();
        Parallelism p = r.parallelism();
        parts.add("parallelism " + (p == null || p.kinds().isEmpty() ? "none recognised" : String.join(", ", p.kinds())));
        List<String> available = new ArrayList<>();
        if (na.prefetch() == null) {
            available.add("prefetch");
        }
        if (na.pipeline() == null) {
            available.add("pipeline");
        }
        if (na.launch() == null) {
            available.add("launch");
        }
        if (na.contention() == null && !r.contention().isEmpty()) {
            available.add("slowdown under overlap");
        }
        if (na.memory() == null) {
            available.add("memory");
        }
        parts.add(available.isEmpty() ? "no other section available" : String.join(", ", available));
        return String.join(" · ", parts);
    }

    private static void heading(String section, String title, StringBuilder sb) {
        sb.append("<h4 class=\"bx\" data-section=\"").append(section).append("\">").append(Html.esc(title)).append("</h4>");
    }

    private static boolean unavailable(String section, String why, StringBuilder sb) {
        if (why == null) {
            return false;
        }
        sb.append("<p class=\"na muted\" data-section=\"").append(section).append("\">not available: ")
                .append(Html.esc(why)).append("</p>");
        return true;
    }

    private static void parallelism(Parallelism p, StringBuilder sb) {
        heading("parallelism", "parallelism", sb);
        if (p == null) {
            sb.append("<p class=\"na muted\" data-section=\"parallelism\">not available: the report predates it</p>");
            return;
        }
        sb.append("<p class=\"par\" data-kinds=\"").append(Html.esc(String.join(",", p.kinds()))).append("\"><b>")
                .append(Html.esc(p.kinds().isEmpty() ? "none recognised" : String.join(", ", p.kinds())))
                .append("</b></p>");
        if (!p.evidence().isEmpty()) {
            sb.append("<ul class=\"evidence\">");
            for (String e : p.evidence()) {
                sb.append("<li>").append(Html.esc(e)).append("</li>");
            }
            sb.append("</ul>");
        }
    }

    /**
     * Micro-batch overlap per user annotation, by exposed communication as the report lists them;
     * nothing at all when the trace had no annotations (most traces: a "none" line would be noise).
     */
    private static void annotations(RankReport r, int maxRows, StringBuilder sb) {
        List<String> rows = new ArrayList<>();
        for (StepReport s : r.steps()) {
            for (AnnotationReport a : s.annotations()) {
                rows.add("<tr data-step=\"" + Html.esc(s.name()) + "\" data-annotation=\"" + Html.esc(a.name())
                        + "\"><td class=\"l\">" + Html.esc(s.name()) + "</td><td class=\"l\">" + Html.esc(a.name())
                        + "</td>" + nsCell("device", a.deviceNs()) + nsCell("comm", a.commNs())
                        + nsCell("exposed", a.exposedCommNs()) + nsCell("hidden-under", a.hiddenUnderNs()) + "</tr>");
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        heading("annotations", io.overlapanalyze.render.BeyondView.ANNOTATIONS_TITLE, sb);
        sb.append("<p class=\"muted\">exposed: under no compute at all; hidden under others: under compute of other "
                + "annotations (e.g. one micro-batch's dispatch under the other's MLP).</p>");
        table("annotations", "<th class=\"l\">step</th><th class=\"l\">annotation</th><th>device ms</th>"
                + "<th>comm ms</th><th>exposed ms</th><th>hidden under others ms</th>", rows, "rows", maxRows, sb);
    }

    private static void prefetch(RankReport r, NotAvailable na, int maxRows, StringBuilder sb) {
        heading("prefetch", "prefetch (FSDP / ZeRO all-gathers)", sb);
        if (unavailable("prefetch", na.prefetch(), sb)) {
            return;
        }
        List<String> rows = new ArrayList<>();
        List<String> late = new ArrayList<>();
        for (StepReport s : r.steps()) {
            if (s.exposedPrefetchNs() == null) {
                continue;
            }
            int lateCount = 0;
            int unknown = 0;
            for (PrefetchReport p : s.prefetches()) {
                if (p.waitNs() == null) {
                    unknown++;
                } else if (p.waitNs() > 0) {
                    lateCount++;
                    late.add("<tr data-step=\"" + Html.esc(s.name()) + "\" data-collective=\"" + p.collective()
                            + "\"><td class=\"l\">" + Html.esc(s.name()) + "</td><td>#" + p.collective() + "</td><td class=\"l\">"
                            + Html.esc(p.phase().toLowerCase(Locale.ROOT)) + "</td><td>" + Html.esc(Units.bytes(p.bytes()))
                            + "</td><td class=\"l\" title=\"" + Html.esc(p.consumerKernel()) + "\">"
                            + Html.esc(shortName(p.consumerKernel())) + "</td>" + nsCell("late", p.lateNs())
                            + nsCell("wait", p.waitNs()) + "<td class=\"l\">" + Html.esc(p.rule()) + "</td></tr>");
                }
            }
            rows.add("<tr data-step=\"" + Html.esc(s.name()) + "\"><td class=\"l\">" + Html.esc(s.name()) + "</td><td>"
                    + s.prefetches().size() + "</td><td>" + lateCount + "</td><td>" + unknown + "</td>"
                    + nsCell("exposed-prefetch", s.exposedPrefetchNs()) + "</tr>");
        }
        table("prefetch-steps", "<th class=\"l\">step</th><th>all-gathers</th><th>late</th><th>no consumer</th>"
                + "<th>exposed prefetch ms</th>", rows, "steps", maxRows, sb);
        if (late.isEmpty()) {
            sb.append("<p class=\"muted late-none\">no all-gather finished after its consumer's stream was free.</p>");
        } else {
            sb.append("<p class=\"muted\">late prefetches: the all-gather ended after the stream that consumes it "
                    + "had finished its previous work; \"wait\" is the compute-stream idle it caused.</p>");
            table("late-prefetch", "<th class=\"l\">step</th><th>all-gather</th><th class=\"l\">phase</th><th>bytes</th>"
                    + "<th class=\"l\">consumer</th><th>late by ms</th><th>wait ms</th><th class=\"l\">rule</th>", late,
                    "late prefetches", maxRows, sb);
        }
    }

    private static void pipeline(RankReport r, NotAvailable na, int maxRows, StringBuilder sb) {
        heading("pipeline", "pipeline (send/recv overlap, bubbles = device not computing)", sb);
        if (unavailable("pipeline", na.pipeline(), sb)) {
            return;
        }
        List<String> rows = new ArrayList<>();
        for (StepReport s : r.steps()) {
            PipelineReport p = s.pipeline();
            if (p == null) {
                continue;
            }
            rows.add("<tr data-step=\"" + Html.esc(s.name()) + "\"><td class=\"l\">" + Html.esc(s.name()) + "</td><td>"
                    + p.p2pCollectives() + "</td>" + nsCell("p2p-busy", p.p2pBusyNs())
                    + nsCell("p2p-overlapped", p.p2pOverlappedNs()) + nsCell("p2p-exposed", p.p2pExposedNs())
                    + nsCell("bubble", p.bubbleNs()) + "<td>" + p.bubbles() + "</td>"
                    + nsCell("largest-bubble", p.largestBubbleNs()) + "</tr>");
        }
        table("pipeline", "<th class=\"l\">step</th><th>send/recv</th><th>p2p busy ms</th><th>overlapped ms</th>"
                + "<th>exposed ms</th><th>bubble ms</th><th>bubbles</th><th>largest ms</th>", rows, "steps", maxRows, sb);
    }

    private static void launch(RankReport r, NotAvailable na, int maxRows, StringBuilder sb) {
        heading("launch", "launch diagnostics (data-ready → enqueue → device start, gradient collectives)", sb);
        if (unavailable("launch", na.launch(), sb)) {
            return;
        }
        List<String> rows = new ArrayList<>();
        long delay = 0;
        long lateSum = 0;
        long busySum = 0;
        long otherSum = 0;
        for (StepReport s : r.steps()) {
            LaunchReport l = s.launch();
            if (l == null) {
                continue;
            }
            delay += l.startDelayNs();
            lateSum += l.launchLateNs();
            busySum += l.commBusyNs();
            otherSum += l.otherNs();
            rows.add("<tr data-step=\"" + Html.esc(s.name()) + "\"><td class=\"l\">" + Html.esc(s.name()) + "</td><td>"
                    + l.collectives().size() + "</td>" + nsCell("start-delay", l.startDelayNs())
                    + nsCell("launch-late", l.launchLateNs()) + "<td>" + Units.pct(l.launchLateShare()) + "</td>"
                    + nsCell("comm-busy", l.commBusyNs()) + "<td>" + Units.pct(l.commBusyShare()) + "</td>"
                    + nsCell("other", l.otherNs()) + "<td>" + l.unknownReady() + "</td></tr>");
        }
        if (delay > 0) {
            sb.append("<p class=\"launch-share\" data-late-share=\"").append(share(lateSum, delay))
                    .append("\" data-busy-share=\"").append(share(busySum, delay)).append("\">over these steps, summed start ")
                    .append("delay ").append(Units.ms(delay)).append(" ms: <b>late launch ")
                    .append(Units.pct((double) lateSum / delay)).append("</b>, <b>busy comm stream ")
                    .append(Units.pct((double) busySum / delay)).append("</b>, other ")
                    .append(Units.pct((double) otherSum / delay)).append(".</p>");
        }
        table("launch", "<th class=\"l\">step</th><th>collectives</th><th>summed start delay ms</th><th>late launch ms</th>"
                + "<th>share</th><th>busy comm stream ms</th><th>share</th><th>other ms</th><th>no ready time</th>",
                rows, "steps", maxRows, sb);
    }

    private static String share(long part, long whole) {
        return String.format(Locale.ROOT, "%.4f", (double) part / whole);
    }

    private static void contention(RankReport r, NotAvailable na, int maxRows, StringBuilder sb) {
        heading("contention", "compute slowdown under overlap", sb);
        if (unavailable("contention", na.contention() != null || !r.contention().isEmpty() ? na.contention()
                : "nothing measured", sb)) {
            return;
        }
        sb.append("<p class=\"muted\">kernels by name and launch shape with enough instances both under "
                + "communication and alone; slower ones most costly first, then faster ones.</p>");
        List<ContentionReport> all = r.contention();
        sb.append("<p class=\"net\" data-ns=\"").append(r.contentionNetExtraPerStepNs()).append("\">")
                .append(Html.esc(BeyondView.netLine(all))).append("</p>");
        String head = "<tr><th class=\"l\">kernel</th><th class=\"l\">launch shape</th><th>overlapped</th>"
                + "<th>isolated</th><th>median overlapped ms</th><th>median isolated ms</th><th>under overlap</th>"
                + "<th>ms/step</th></tr>";
        List<String> labels = BeyondView.contentionLabels(all);
        int shown = Math.min(TOP_KERNELS, all.size());
        sb.append("<div class=\"tw\"><table class=\"bx contention\">").append(head);
        for (int i = 0; i < shown; i++) {
            contentionRow(all.get(i), labels.get(i), sb);
        }
        sb.append("</table></div>");
        int rest = Math.max(0, Math.min(all.size(), maxRows) - shown);
        if (rest > 0) {
            sb.append("<details class=\"more\"><summary>").append(rest).append(" more kernels</summary>")
                    .append("<div class=\"tw\"><table class=\"bx contention more\">").append(head);
            for (int i = shown; i < shown + rest; i++) {
                contentionRow(all.get(i), labels.get(i), sb);
            }
            sb.append("</table></div></details>");
        }
        omitted(all.size() - shown - rest, "kernels", sb);
    }

    private static void contentionRow(ContentionReport c, String label, StringBuilder sb) {
        String shape = c.shapeText();
        sb.append("<tr data-kernel=\"").append(Html.esc(c.kernel())).append('"');
        if (shape != null) {
            sb.append(" data-shape=\"").append(Html.esc(shape)).append('"');
        }
        sb.append(c.fasterUnderOverlap() ? " class=\"faster\"" : "").append("><td class=\"l\" title=\"")
                .append(Html.esc(c.kernel())).append("\">").append(Html.esc(label)).append("</td><td class=\"l\">")
                .append(shape == null ? "-" : Html.esc(shape)).append("</td><td>")
                .append(c.overlappedCount()).append("</td><td>").append(c.isolatedCount()).append("</td>")
                .append(nsCell("overlapped-median", c.overlappedMedianNs()))
                .append(nsCell("isolated-median", c.isolatedMedianNs())).append("<td data-pct=\"")
                .append(String.format(Locale.ROOT, "%.4f", c.slowdownPct())).append("\">")
                .append(Html.esc(BeyondView.effect(c))).append("</td>")
                .append("<td data-k=\"extra\" data-ns=\"").append(c.extraPerStepNs()).append("\">")
                .append(Html.esc(BeyondView.perStep(c))).append("</td></tr>");
    }

    private static void memory(RankReport r, NotAvailable na, int maxRows, StringBuilder sb) {
        heading("memory", "memory (device allocator, peak allocated per step)", sb);
        if (unavailable("memory", na.memory(), sb)) {
            return;
        }
        List<String> labels = new ArrayList<>();
        List<Long> peaks = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (StepReport s : r.steps()) {
            Long p = s.peakAllocatedBytes();
            if (p != null) {
                labels.add(s.name());
                peaks.add(p);
            }
            rows.add("<tr data-step=\"" + Html.esc(s.name()) + "\"><td class=\"l\">" + Html.esc(s.name()) + "</td>"
                    + (p == null ? "<td class=\"na\">no allocator event in this step</td><td></td>"
                    : "<td data-bytes=\"" + p + "\">" + Html.esc(Units.bytes(p)) + "</td><td>" + gib(p) + "</td>")
                    + "</tr>");
        }
        if (peaks.size() > 1) {
            sparkline(labels, peaks, sb);
        }
        table("memory", "<th class=\"l\">step</th><th>peak allocated</th><th>GiB</th>", rows, "steps", maxRows, sb);
    }

    /** GiB with three decimals, from the exact byte count (display only). */
    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.3f", bytes / (1024.0 * 1024 * 1024));
    }

    /**
     * Peak allocated per step as a small line: y from the lowest to the highest peak, one point per
     * step (the maximum of each bin above {@link #SPARK_POINTS} steps).
     */
    private static void sparkline(List<String> labels, List<Long> peaks, StringBuilder sb) {
        int n = peaks.size();
        int bins = Math.min(n, SPARK_POINTS);
        long[] v = new long[bins];
        for (int b = 0; b < bins; b++) {
            int from = (int) ((long) b * n / bins);
            int to = (int) ((long) (b + 1) * n / bins);
            long max = Long.MIN_VALUE;
            for (int i = from; i < to; i++) {
                max = Math.max(max, peaks.get(i));
            }
            v[b] = max;
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (long x : v) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        double w = 240;
        double h = 36;
        sb.append("<svg class=\"spark\" width=\"").append((int) w + 120).append("\" height=\"").append((int) h + 4)
                .append("\" viewBox=\"0 0 ").append((int) w + 120).append(' ').append((int) h + 4)
                .append("\" data-points=\"").append(bins).append("\" data-min-bytes=\"").append(lo)
                .append("\" data-max-bytes=\"").append(hi).append("\" role=\"img\"><title>peak allocated per step, ")
                .append(Html.esc(labels.get(0))).append(" to ").append(Html.esc(labels.get(n - 1))).append(": ")
                .append(Html.esc(Units.bytes(lo))).append(" to ").append(Html.esc(Units.bytes(hi)))
                .append("</title><polyline class=\"sparkline\" points=\"");
        for (int b = 0; b < bins; b++) {
            double x = bins == 1 ? 0 : w * b / (bins - 1);
            double y = hi == lo ? h / 2 : h - h * (v[b] - lo) / (double) (hi - lo);
            if (b > 0) {
                sb.append(' ');
            }
            Html.num(sb, x).append(',');
            Html.num(sb, y + 2);
        }
        sb.append("\"/><text class=\"axt\" x=\"").append((int) w + 6).append("\" y=\"10\">")
                .append(Html.esc(Units.bytes(hi))).append("</text><text class=\"axt\" x=\"").append((int) w + 6)
                .append("\" y=\"").append((int) h + 2).append("\">").append(Html.esc(Units.bytes(lo)))
                .append("</text></svg>");
    }

    /** A table with {@link #SHOWN} rows visible, the rest (up to {@code maxRows} in all) collapsed. */
    private static void table(String cls, String headCells, List<String> rows, String what, int maxRows,
                              StringBuilder sb) {
        String head = "<tr>" + headCells + "</tr>";
        int shown = Math.min(SHOWN, rows.size());
        sb.append("<div class=\"tw\"><table class=\"bx ").append(cls).append("\">").append(head);
        for (int i = 0; i < shown; i++) {
            sb.append(rows.get(i));
        }
        sb.append("</table></div>");
        int rest = Math.max(0, Math.min(rows.size(), maxRows) - shown);
        if (rest > 0) {
            sb.append("<details class=\"more\"><summary>").append(rest).append(" more ").append(what)
                    .append("</summary><div class=\"tw\"><table class=\"bx ").append(cls).append(" more\">").append(head);
            for (int i = shown; i < shown + rest; i++) {
                sb.append(rows.get(i));
            }
            sb.append("</table></div></details>");
        }
        omitted(rows.size() - shown - rest, what, sb);
    }

    private static void omitted(int left, String what, StringBuilder sb) {
        if (left > 0) {
            sb.append("<p class=\"muted\">").append(left).append(" more ").append(what)
                    .append(" not listed to keep this file small; <code>-f json</code> has every one.</p>");
        }
    }

    /** A duration cell: ms text, exact ns in {@code data-ns}; "-" when undefined. */
    private static String nsCell(String name, Long ns) {
        if (ns == null) {
            return "<td data-k=\"" + name + "\">-</td>";
        }
        return "<td data-k=\"" + name + "\" data-ns=\"" + ns + "\">" + Units.ms(ns) + "</td>";
    }

    private static String shortName(String kernel) {
        if (kernel == null) {
            return "-";
        }
        return kernel.length() > 60 ? kernel.substring(0, 57) + "..." : kernel;
    }
}
