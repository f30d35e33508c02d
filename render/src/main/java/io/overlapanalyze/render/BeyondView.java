package io.overlapanalyze.render;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnnotationReport;
import io.overlapanalyze.report.ContentionReport;
import io.overlapanalyze.report.LaunchReport;
import io.overlapanalyze.report.NotAvailable;
import io.overlapanalyze.report.PipelineReport;
import io.overlapanalyze.report.PrefetchReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;

/**
 * The "Beyond DDP" sections (parallelism, FSDP prefetch, pipeline, launch diagnostics, compute
 * slowdown under overlap, memory) as plain lines, shared by the text and markdown renderers. A
 * section the trace cannot fill is one line "not available: why", never zeros.
 */
public final class BeyondView {
    private BeyondView() {
    }

    /** A section: a title line and its lines (possibly a table: rows with header). */
    public record Section(String title, List<String> lines, List<String[]> table) {
    }

    /**
     * The sections with at most {@code maxLines} lines and table rows each, the rest counted in a
     * last line naming the option that shows them ({@link Integer#MAX_VALUE}: every line).
     */
    public static List<Section> sections(RankReport rank, int maxLines) {
        List<Section> all = sections(rank);
        if (maxLines == Integer.MAX_VALUE) {
            return all;
        }
        List<Section> out = new ArrayList<>();
        String more = " (--detail " + rank.rank() + " shows them)";
        for (Section s : all) {
            List<String> lines = s.lines();
            if (lines.size() > maxLines) {
                lines = new ArrayList<>(lines.subList(0, maxLines));
                lines.add("… " + (s.lines().size() - maxLines) + " more lines" + more);
            }
            List<String[]> table = s.table();
            if (table != null && table.size() - 1 > maxLines) {
                table = table.subList(0, maxLines + 1);
                lines = new ArrayList<>(lines);
                lines.add("… " + (s.table().size() - 1 - maxLines) + " more rows below the table's first "
                        + maxLines + more);
            }
            out.add(new Section(s.title(), lines, table));
        }
        return out;
    }

    public static List<Section> sections(RankReport rank) {
        List<Section> out = new ArrayList<>();
        NotAvailable na = rank.notAvailable() == null ? NotAvailable.none() : rank.notAvailable();
        if (rank.parallelism() != null) {
            String kinds = rank.parallelism().kinds().isEmpty() ? "none recognised"
                    : String.join(", ", rank.parallelism().kinds());
            out.add(new Section("parallelism: " + kinds, rank.parallelism().evidence(), null));
        }
        Section fused = fused(rank);
        if (fused != null) {
            out.add(fused);
        }
        Section annotations = annotations(rank);
        if (annotations != null) {
            out.add(annotations);
        }
        out.add(prefetch(rank, na));
        out.add(pipeline(rank, na));
        out.add(launch(rank, na));
        out.add(contention(rank, na));
        out.add(memory(rank, na));
        return out;
    }

    /**
     * Fused compute-communication kernels, per step; {@code null} when no step has any (the usual
     * case: a section saying "none" on every DDP trace would be noise).
     */
    private static Section fused(RankReport rank) {
        List<String[]> rows = new ArrayList<>();
        boolean split = rank.steps().stream().anyMatch(s -> s.hasFused() && s.fusedCommNs() != null);
        rows.add(split ? new String[] {"step", "fused ms", "of step", "their comm ops ms"}
                : new String[] {"step", "fused ms", "of step"});
        for (StepReport s : rank.steps()) {
            if (s.hasFused()) {
                String ms = Units.ms(s.fusedBusyNs());
                String pct = Units.pct(s.stepTimeNs() == 0 ? null : (double) s.fusedBusyNs() / s.stepTimeNs());
                rows.add(split ? new String[] {s.name(), ms, pct, s.fusedCommNs() == null ? "n/a" : Units.ms(s.fusedCommNs())}
                        : new String[] {s.name(), ms, pct});
            }
        }
        if (rows.size() == 1) {
            return null;
        }
        List<String> notes = new ArrayList<>(List.of("counted in neither compute nor communication, but as device work; "
                + "how much of their communication hides under their own compute is not visible in the trace"));
        if (split) {
            notes.add("their comm ops: the span of the communication op the profiler records for each fused operator "
                    + "(Ascend MC2's kfc op), waits included; their compute part alone is not in the trace");
        }
        return new Section("fused kernels (compute and communication inside one kernel: Ascend MC², fused "
                + "GEMM+collective)", notes, rows);
    }

    /** The title of the micro-batch overlap table (tests and the HTML report find it by this). */
    public static final String ANNOTATIONS_TITLE = "micro-batch overlap (per user annotation, by exposed communication)";

    /**
     * Per user annotation name, its device time, communication, exposed communication and the
     * communication hidden under other annotations' compute, sorted by exposed communication as
     * the report lists them; a step column when more than one step has annotations. {@code null}
     * when no step has any (the trace had no annotations).
     */
    /**
     * Rows per step in the text and markdown table: the most exposed annotations; traces with
     * dozens of record_function scopes (TorchRec) would otherwise print pages.
     */
    static final int ANNOTATION_ROWS = 10;

    private static Section annotations(RankReport rank) {
        List<StepReport> steps = rank.steps().stream().filter(StepReport::hasAnnotations).toList();
        if (steps.isEmpty()) {
            return null;
        }
        boolean perStep = steps.size() > 1;
        List<String[]> rows = new ArrayList<>();
        String[] header = {"annotation", "device ms", "comm ms", "exposed ms", "hidden under others ms"};
        rows.add(perStep ? prepend("step", header) : header);
        for (StepReport s : steps) {
            List<AnnotationReport> shown = s.annotations().subList(0, Math.min(ANNOTATION_ROWS, s.annotations().size()));
            for (AnnotationReport a : shown) {
                String[] row = {a.name(), Units.ms(a.deviceNs()), Units.ms(a.commNs()), Units.ms(a.exposedCommNs()),
                        Units.ms(a.hiddenUnderNs())};
                rows.add(perStep ? prepend(s.name(), row) : row);
            }
            int more = s.annotations().size() - shown.size();
            if (more > 0) {
                String[] row = {"(" + more + " more, less exposed; -f json lists all)", "", "", "", ""};
                rows.add(perStep ? prepend(s.name(), row) : row);
            }
        }
        return new Section(ANNOTATIONS_TITLE, List.of("exposed: under no compute at all; hidden under others: under "
                + "compute of other annotations (e.g. one micro-batch's dispatch under the other's MLP)"), rows);
    }

    private static String[] prepend(String first, String[] rest) {
        String[] out = new String[rest.length + 1];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    private static Section unavailable(String title, String why) {
        return new Section(title + ": not available: " + why, List.of(), null);
    }

    private static Section prefetch(RankReport rank, NotAvailable na) {
        String title = "prefetch (FSDP / ZeRO all-gathers)";
        if (na.prefetch() != null) {
            return unavailable("prefetch", na.prefetch());
        }
        List<String> lines = new ArrayList<>();
        for (StepReport s : rank.steps()) {
            if (s.exposedPrefetchNs() == null) {
                continue;
            }
            List<String> late = new ArrayList<>();
            int unknown = 0;
            for (PrefetchReport p : s.prefetches()) {
                if (p.waitNs() == null) {
                    unknown++;
                } else if (p.waitNs() > 0) {
                    late.add("all-gather #" + p.collective() + " (" + p.phase().toLowerCase() + ", "
                            + Units.bytes(p.bytes()) + ") late " + Units.msUnit(p.lateNs()) + ", compute waited "
                            + Units.msUnit(p.waitNs()));
                }
            }
            StringBuilder sb = new StringBuilder(s.name()).append(": exposed prefetch ")
                    .append(Units.msUnit(s.exposedPrefetchNs())).append(", ").append(s.prefetches().size())
                    .append(" all-gathers, ").append(late.isEmpty() ? "none late" : late.size() + " late");
            if (unknown > 0) {
                sb.append(", ").append(unknown).append(" without an identifiable consumer");
            }
            lines.add(sb.toString());
            for (String l : late) {
                lines.add("  " + l);
            }
        }
        return new Section(title, lines, null);
    }

    private static Section pipeline(RankReport rank, NotAvailable na) {
        if (na.pipeline() != null) {
            return unavailable("pipeline", na.pipeline());
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"step", "send/recv", "p2p busy ms", "overlapped ms", "exposed ms", "bubble ms", "bubbles",
                "largest ms"});
        for (StepReport s : rank.steps()) {
            PipelineReport p = s.pipeline();
            if (p == null) {
                continue;
            }
            rows.add(new String[] {s.name(), Integer.toString(p.p2pCollectives()), Units.ms(p.p2pBusyNs()),
                    Units.ms(p.p2pOverlappedNs()), Units.ms(p.p2pExposedNs()), Units.ms(p.bubbleNs()),
                    Integer.toString(p.bubbles()), Units.ms(p.largestBubbleNs())});
        }
        return new Section("pipeline (send/recv overlap, bubbles = device not computing)", List.of(), rows);
    }

    private static Section launch(RankReport rank, NotAvailable na) {
        if (na.launch() != null) {
            return unavailable("launch diagnostics", na.launch());
        }
        List<String> lines = new ArrayList<>();
        for (StepReport s : rank.steps()) {
            LaunchReport l = s.launch();
            if (l == null) {
                continue;
            }
            StringBuilder sb = new StringBuilder(s.name()).append(": ").append(l.collectives().size())
                    .append(" gradient collectives, summed start delay ").append(Units.msUnit(l.startDelayNs()));
            if (l.startDelayNs() > 0) {
                sb.append(" = late launch ").append(Units.msUnit(l.launchLateNs())).append(" (")
                        .append(Units.pct(l.launchLateShare())).append(") + busy comm stream ")
                        .append(Units.msUnit(l.commBusyNs())).append(" (").append(Units.pct(l.commBusyShare()))
                        .append(") + other ").append(Units.msUnit(l.otherNs()));
            }
            if (l.unknownReady() > 0) {
                sb.append("; ").append(l.unknownReady()).append(" without a data-ready time");
            }
            lines.add(sb.toString());
        }
        return new Section("launch diagnostics (data-ready -> enqueue -> device start, per gradient collective)", lines,
                null);
    }

    private static Section contention(RankReport rank, NotAvailable na) {
        String title = "compute slowdown under overlap";
        if (na.contention() != null || rank.contention().isEmpty()) {
            return unavailable(title, na.contention() != null ? na.contention() : "nothing measured");
        }
        List<ContentionReport> all = rank.contention();
        List<String> labels = contentionLabels(all);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"kernel", "launch shape", "overlapped", "isolated", "median overlapped ms",
            "median isolated ms", "under overlap", "ms/step"});
        for (int i = 0; i < all.size(); i++) {
            ContentionReport c = all.get(i);
            rows.add(new String[] {labels.get(i), c.shapeText() == null ? "-" : c.shapeText(),
                Integer.toString(c.overlappedCount()), Integer.toString(c.isolatedCount()),
                Units.ms(c.overlappedMedianNs()), Units.ms(c.isolatedMedianNs()), effect(c), perStep(c)});
        }
        return new Section(title + " (kernels by name and launch shape with enough instances on both sides; slower "
                + "ones most costly first, then faster ones)", List.of(netLine(all)), rows);
    }

    /** "+20.0% slower" or "10.0% faster": a kernel faster under overlap is never a negative slowdown. */
    public static String effect(ContentionReport c) {
        if (c.fasterUnderOverlap()) {
            return String.format(java.util.Locale.ROOT, "%.1f%% faster", -c.slowdownPct());
        }
        return String.format(java.util.Locale.ROOT, "%.1f%% slower", c.slowdownPct());
    }

    /** "+0.160 extra" for a slower kernel, "0.040 saved" for a faster one. */
    public static String perStep(ContentionReport c) {
        return c.fasterUnderOverlap() ? Units.ms(-c.extraPerStepNs()) + " saved" : "+" + Units.ms(c.extraPerStepNs())
                + " extra";
    }

    /** The net per step: slower kernels' extra minus faster kernels' saving. */
    public static String netLine(List<ContentionReport> rows) {
        long slower = 0;
        long faster = 0;
        for (ContentionReport c : rows) {
            if (c.fasterUnderOverlap()) {
                faster -= c.extraPerStepNs();
            } else {
                slower += c.extraPerStepNs();
            }
        }
        long net = ContentionReport.netExtraPerStepNs(rows);
        return "net per step: " + Units.signedMs(net) + " ms (slower kernels +" + Units.ms(slower)
                + " ms, faster kernels -" + Units.ms(faster) + " ms)";
    }

    /** Longest kernel name shown; longer ones keep their head and tail. */
    static final int KERNEL_WIDTH = 60;

    /**
     * Kernel names as shown, one per row: long names keep their first 40 and last 17 characters
     * (templates differ at the end as often as at the start); a name and shape that still repeat
     * another row's after shortening get " (2)", " (3)", … so that no two rows read the same.
     */
    public static List<String> contentionLabels(List<ContentionReport> rows) {
        List<String> out = new ArrayList<>(rows.size());
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (ContentionReport c : rows) {
            String k = c.kernel() == null ? "(unnamed)" : c.kernel();
            String label = k.length() > KERNEL_WIDTH ? k.substring(0, 40) + "..." + k.substring(k.length() - 17) : k;
            int n = seen.merge(label + "\u0000" + c.shapeText(), 1, Integer::sum);
            out.add(n == 1 ? label : label + " (" + n + ")");
        }
        return out;
    }

    private static Section memory(RankReport rank, NotAvailable na) {
        if (na.memory() != null) {
            return unavailable("memory", na.memory());
        }
        List<String> lines = new ArrayList<>();
        for (StepReport s : rank.steps()) {
            lines.add(s.name() + ": peak allocated " + (s.peakAllocatedBytes() == null
                    ? "not available: no allocator event in this step" : Units.bytes(s.peakAllocatedBytes())
                    + " (" + s.peakAllocatedBytes() + " bytes)"));
        }
        return new Section("memory (device allocator, peak per step)", lines, null);
    }
}
