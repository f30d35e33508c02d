package io.overlapanalyze.render;

import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.BandwidthByType;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.SkewSummary;
import io.overlapanalyze.report.StepTail;
import io.overlapanalyze.report.Straggler;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cross-rank section (metrics.md §8) as text or markdown: inputs left out, clock offsets,
 * groups, mismatches, skew, the straggler table, bandwidth and the worst tail per step. Both
 * views come from the same rows, so they cannot disagree.
 */
final class CrossRankSection {
    private CrossRankSection() {
    }

    static void text(CrossRankReport x, StringBuilder sb) {
        sb.append("\nacross ranks: ").append(header(x)).append('\n');
        for (InputProblem p : x.inputProblems()) {
            sb.append("input left out: ").append(TerminalText.safe(p.message())).append('\n');
        }
        sb.append("clocks: ").append(TerminalText.safe(clock(x))).append('\n');
        for (GroupSummary g : x.groups()) {
            sb.append("group ").append(TerminalText.safe(group(g))).append('\n');
        }
        if (x.mismatches().isEmpty()) {
            sb.append("mismatches: none\n");
        }
        for (Mismatch m : x.mismatches()) {
            sb.append(m.severity()).append(' ').append(m.kind()).append(": ").append(TerminalText.safe(m.message()))
                    .append('\n');
        }
        sb.append("skew: ").append(TerminalText.safe(skew(x.skew()))).append('\n');
        if (!x.stragglers().isEmpty()) {
            sb.append("\nstragglers (most waited-for first; ms over all matched collectives)\n");
            List<String[]> rows = new ArrayList<>();
            rows.add(STRAGGLER_HEADER);
            rows.addAll(stragglerRows(x));
            TextTable.render(rows, Set.of(0), sb);
        }
        if (!x.bandwidth().isEmpty()) {
            sb.append("\nbandwidth (nccl-tests conventions, decimal GB/s, transfer = min duration over ranks)\n");
            List<String[]> rows = new ArrayList<>();
            rows.add(BANDWIDTH_HEADER);
            rows.addAll(bandwidthRows(x));
            TextTable.render(rows, Set.of(0), sb);
        }
        if (!x.worstTails().isEmpty()) {
            sb.append("\nworst tail per step (every rank's optimizer waits for it)\n");
            List<String[]> rows = new ArrayList<>();
            rows.add(TAIL_HEADER);
            rows.addAll(tailRows(x));
            TextTable.render(rows, Set.of(0), sb);
        }
        for (String n : x.notes()) {
            sb.append("note: ").append(TerminalText.safe(n)).append('\n');
        }
    }

    static void markdown(CrossRankReport x, StringBuilder sb) {
        sb.append("\n## Across ranks\n\n").append(header(x)).append("\n\n");
        for (InputProblem p : x.inputProblems()) {
            sb.append("- **input left out** (").append(p.kind()).append("): ").append(esc(p.message())).append('\n');
        }
        sb.append("- clocks: ").append(esc(clock(x))).append('\n');
        for (GroupSummary g : x.groups()) {
            sb.append("- group ").append(esc(group(g))).append('\n');
        }
        sb.append("- skew: ").append(esc(skew(x.skew()))).append('\n');
        sb.append("\n### Mismatches\n\n");
        if (x.mismatches().isEmpty()) {
            sb.append("None.\n");
        }
        for (Mismatch m : x.mismatches()) {
            sb.append("- **").append(m.severity()).append(' ').append(m.kind()).append("**: ").append(esc(m.message()))
                    .append('\n');
        }
        table(sb, "Stragglers (most waited-for first)", STRAGGLER_HEADER, stragglerRows(x));
        table(sb, "Bandwidth", BANDWIDTH_HEADER, bandwidthRows(x));
        table(sb, "Worst tail per step", TAIL_HEADER, tailRows(x));
        for (String n : x.notes()) {
            sb.append("\n> note: ").append(esc(n)).append('\n');
        }
    }

    private static void table(StringBuilder sb, String title, String[] header, List<String[]> rows) {
        if (rows.isEmpty()) {
            return;
        }
        sb.append("\n### ").append(title).append("\n\n| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            sb.append(i == 0 ? "---|" : "--:|");
        }
        sb.append('\n');
        for (String[] r : rows) {
            List<String> cells = new ArrayList<>();
            for (String c : r) {
                cells.add(esc(c));
            }
            sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
    }

    private static String header(CrossRankReport x) {
        return x.ranks().size() + " rank" + (x.ranks().size() == 1 ? "" : "s") + " compared ("
                + x.ranks().stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")"
                + (x.worldSize() == null ? "" : " of a job of " + x.worldSize());
    }

    private static String clock(CrossRankReport x) {
        if (!x.clock().aligned()) {
            return x.clock().note();
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : x.clockOffsetsNs().entrySet()) {
            parts.add("rank " + e.getKey() + " " + Units.signedUs(e.getValue()));
        }
        return "offsets (own clock minus the mean clock) " + String.join(", ", parts) + "; " + x.clock().note()
                + ", largest residual " + Units.signedUs(x.clock().maxResidualNs()).substring(1);
    }

    private static String group(GroupSummary g) {
        return g.group() + (g.inferred() ? " (inferred)" : "") + ": ranks "
                + g.members().stream().map(String::valueOf).collect(Collectors.joining(", ")) + ", matched by "
                + g.matchedBy().toLowerCase(Locale.ROOT).replace('_', ' ') + ", " + g.matched()
                + " matched on every rank" + (g.leftOutFrom() == null ? ""
                : " (pairing stops at " + ("SEQUENCE".equals(g.matchedBy()) ? "Seq " : "index ") + g.leftOutFrom()
                + ": the group diverged there)") + "; issued per rank: " + g.counts().entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(" "));
    }

    private static String skew(SkewSummary s) {
        if (s.timed() == 0) {
            return "no collective has device times on every rank";
        }
        if (s.medianSkewNs() == null) {
            return s.timed() + " timed collectives; no arrival skew or waits: the clocks or the pairing do not "
                    + "allow them (see the notes); end skew median " + Units.ms(s.medianEndSkewNs())
                    + " ms after alignment";
        }
        return s.timed() + " timed collectives; arrival skew median " + Units.ms(s.medianSkewNs()) + " ms, max "
                + Units.ms(s.maxSkewNs()) + " ms (group " + s.worstGroup() + " index " + s.worstIndex() + " "
                + s.worstType() + (s.worstStep() == null ? "" : " in " + s.worstStep())
                + (s.worstLastRank() == null ? "" : ", rank " + s.worstLastRank() + " last") + "); end skew median "
                + Units.ms(s.medianEndSkewNs()) + " ms after alignment";
    }

    private static final String[] STRAGGLER_HEADER = {"rank", "waited for", "times last", "own wait", "exposed comm",
            "of it waiting", "waiting share"};

    private static List<String[]> stragglerRows(CrossRankReport x) {
        List<String[]> rows = new ArrayList<>();
        for (Straggler s : x.stragglers()) {
            rows.add(new String[] {Integer.toString(s.rank()), Units.ms(s.waitedForNs()),
                    Integer.toString(s.timesArrivedLast()), Units.ms(s.totalWaitNs()), Units.ms(s.exposedCommNs()),
                    Units.ms(s.exposedWaitNs()), Units.pct(s.exposedWaitShare())});
        }
        return rows;
    }

    private static final String[] BANDWIDTH_HEADER = {"type", "count", "with size", "bytes", "transfer ms",
            "algbw GB/s", "busbw GB/s", "median busbw"};

    private static List<String[]> bandwidthRows(CrossRankReport x) {
        List<String[]> rows = new ArrayList<>();
        for (BandwidthByType b : x.bandwidth()) {
            rows.add(new String[] {b.type(), Integer.toString(b.count()), Integer.toString(b.withSize()),
                    b.withSize() == 0 ? "?" : Units.bytes(b.bytes()), b.withSize() == 0 ? "-" : Units.ms(b.transferNs()),
                    Units.gbps(b.algBwGBps()), Units.gbps(b.busBwGBps()), Units.gbps(b.medianBusBwGBps())});
        }
        return rows;
    }

    private static final String[] TAIL_HEADER = {"step", "worst rank", "tail ms", "cause", "min tail ms", "ranks"};

    private static List<String[]> tailRows(CrossRankReport x) {
        List<String[]> rows = new ArrayList<>();
        for (StepTail t : x.worstTails()) {
            rows.add(new String[] {t.step(), Integer.toString(t.worstRank()), Units.ms(t.tailNs()), t.kind(),
                    Units.ms(t.minTailNs()), Integer.toString(t.ranks())});
        }
        return rows;
    }

    private static String esc(String s) {
        return MarkdownEscape.text(s);
    }
}
