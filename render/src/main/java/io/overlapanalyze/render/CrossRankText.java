package io.overlapanalyze.render;

import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.BandwidthByType;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.GroupSummary;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankRanges;
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
final class CrossRankText {
    private CrossRankText() {
    }

    /** Rows of each cross-rank list a compact report shows (the job's first screens). */
    static final int COMPACT_ROWS = 8;

    /**
     * @param cap the most rows of each list (offsets, groups, mismatches, stragglers, tails, notes);
     *            {@link Integer#MAX_VALUE} for the full section
     */
    static void text(CrossRankReport x, StringBuilder sb, int cap) {
        sb.append("\nacross ranks: ").append(header(x)).append('\n');
        for (String line : capped(x.inputProblems().stream().map(p -> "input left out: " + TerminalText.safe(p.message())).toList(), cap,
                "inputs left out")) {
            sb.append(line).append('\n');
        }
        sb.append("clocks: ").append(TerminalText.safe(clock(x, cap))).append('\n');
        for (String line : capped(x.groups().stream().map(g -> "group " + TerminalText.safe(group(g))).toList(), cap, "groups")) {
            sb.append(line).append('\n');
        }
        if (x.mismatches().isEmpty()) {
            sb.append("mismatches: none\n");
        }
        for (String line : capped(x.mismatches().stream().map(m -> m.severity() + " " + m.kind() + ": "
                + TerminalText.safe(m.message())).toList(), cap, "mismatches")) {
            sb.append(line).append('\n');
        }
        sb.append("skew: ").append(TerminalText.safe(skew(x.skew()))).append('\n');
        if (!x.stragglers().isEmpty()) {
            sb.append("\nstragglers (most waited-for first; ms over all matched collectives)\n");
            table(sb, STRAGGLER_HEADER, stragglerRows(x), cap, "ranks");
        }
        if (!x.bandwidth().isEmpty()) {
            sb.append("\nbandwidth (nccl-tests conventions, decimal GB/s, transfer = min duration over ranks)\n");
            table(sb, BANDWIDTH_HEADER, bandwidthRows(x), Integer.MAX_VALUE, "types");
        }
        if (!x.worstTails().isEmpty()) {
            sb.append("\nworst tail per step (every rank's optimizer waits for it)")
                    .append(x.worstTails().size() > cap ? LONGEST_FIRST : "").append('\n');
            table(sb, TAIL_HEADER, tailRows(tailsShown(x, cap)), cap, "steps");
        }
        for (String line : capped(x.notes().stream().map(n -> "note: " + TerminalText.safe(n)).toList(), cap, "notes")) {
            sb.append(line).append('\n');
        }
    }

    private static final String LONGEST_FIRST = ", the longest first";

    /** The worst tails in the order shown: by step, or, when capped, the longest first (not the first steps). */
    private static List<StepTail> tailsShown(CrossRankReport x, int cap) {
        return x.worstTails().size() <= cap ? x.worstTails() : x.worstTails().stream()
                .sorted(java.util.Comparator.comparingLong(StepTail::tailNs).reversed()).toList();
    }

    /** At most {@code cap} lines, then "… N more what (--detail all shows them)". */
    private static List<String> capped(List<String> lines, int cap, String what) {
        if (lines.size() <= cap) {
            return lines;
        }
        List<String> out = new ArrayList<>(lines.subList(0, cap));
        out.add("… " + (lines.size() - cap) + " more " + what + " (--detail all shows them)");
        return out;
    }

    private static void table(StringBuilder sb, String[] header, List<String[]> rows, int cap, String what) {
        List<String[]> all = new ArrayList<>();
        all.add(header);
        all.addAll(rows.subList(0, Math.min(cap, rows.size())));
        TextTable.render(all, Set.of(0), sb);
        if (rows.size() > cap) {
            sb.append("… ").append(rows.size() - cap).append(" more ").append(what).append(" (--detail all shows them)\n");
        }
    }

    /** As {@link #text}, in markdown; {@code cap} as there. */
    static void markdown(CrossRankReport x, StringBuilder sb, int cap) {
        sb.append("\n## Across ranks\n\n").append(header(x)).append("\n\n");
        for (String line : capped(x.inputProblems().stream().map(p -> "**input left out** (" + p.kind() + "): "
                + esc(p.message())).toList(), cap, "inputs left out")) {
            sb.append("- ").append(line).append('\n');
        }
        sb.append("- clocks: ").append(esc(clock(x, cap))).append('\n');
        for (String line : capped(x.groups().stream().map(g -> "group " + esc(group(g))).toList(), cap, "groups")) {
            sb.append("- ").append(line).append('\n');
        }
        sb.append("- skew: ").append(esc(skew(x.skew()))).append('\n');
        sb.append("\n### Mismatches\n\n");
        if (x.mismatches().isEmpty()) {
            sb.append("None.\n");
        }
        for (String line : capped(x.mismatches().stream().map(m -> "**" + m.severity() + ' ' + m.kind() + "**: "
                + esc(m.message())).toList(), cap, "mismatches")) {
            sb.append("- ").append(line).append('\n');
        }
        table(sb, "Stragglers (most waited-for first)", STRAGGLER_HEADER, stragglerRows(x), cap, "ranks");
        table(sb, "Bandwidth", BANDWIDTH_HEADER, bandwidthRows(x), Integer.MAX_VALUE, "types");
        table(sb, "Worst tail per step" + (x.worstTails().size() > cap ? LONGEST_FIRST : ""), TAIL_HEADER,
                tailRows(tailsShown(x, cap)), cap, "steps");
        for (String line : capped(x.notes().stream().map(n -> "note: " + esc(n)).toList(), cap, "notes")) {
            sb.append("\n> ").append(line).append('\n');
        }
    }

    private static void table(StringBuilder sb, String title, String[] header, List<String[]> rows, int cap,
                              String what) {
        if (rows.isEmpty()) {
            return;
        }
        sb.append("\n### ").append(title).append("\n\n| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            sb.append(i == 0 ? "---|" : "--:|");
        }
        sb.append('\n');
        for (String[] r : rows.subList(0, Math.min(cap, rows.size()))) {
            List<String> cells = new ArrayList<>();
            for (String c : r) {
                cells.add(esc(c));
            }
            sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
        }
        if (rows.size() > cap) {
            sb.append("\n… ").append(rows.size() - cap).append(" more ").append(what)
                    .append(" (--detail all shows them)\n");
        }
    }

    private static String header(CrossRankReport x) {
        return x.ranks().size() + " rank" + (x.ranks().size() == 1 ? "" : "s") + " compared ("
                + RankRanges.text(x.ranks()) + ")"
                + (x.worldSize() == null ? "" : " of a job of " + x.worldSize());
    }

    /** The offsets, every one, or when there are more than {@code cap} the largest in size. */
    private static String clock(CrossRankReport x, int cap) {
        if (!x.clock().aligned()) {
            return x.clock().note();
        }
        List<Map.Entry<Integer, Long>> offsets = new ArrayList<>(x.clockOffsetsNs().entrySet());
        boolean largest = offsets.size() > cap;
        if (largest) {
            offsets.sort(Map.Entry.<Integer, Long>comparingByValue(
                    java.util.Comparator.comparingLong(Math::abs)).reversed().thenComparing(Map.Entry.comparingByKey()));
            offsets = offsets.subList(0, cap);
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : offsets) {
            parts.add("rank " + e.getKey() + " " + Units.signedUs(e.getValue()));
        }
        return "offsets (own clock minus the mean clock) " + (largest ? "largest " : "") + String.join(", ", parts)
                + (largest ? ", … " + (x.clockOffsetsNs().size() - cap) + " more" : "") + "; " + x.clock().note()
                + ", largest residual " + Units.signedUs(x.clock().maxResidualNs()).substring(1);
    }

    private static String group(GroupSummary g) {
        return g.group() + (g.inferred() ? " (inferred)" : "") + ": ranks "
                + RankRanges.text(g.members()) + ", matched by "
                + g.matchedBy().toLowerCase(Locale.ROOT).replace('_', ' ') + ", " + g.matched()
                + " matched on every rank" + (g.leftOutFrom() == null ? ""
                : " (pairing stops at " + ("SEQUENCE".equals(g.matchedBy()) ? "Seq " : "index ") + g.leftOutFrom()
                + ": the group diverged there)") + "; issued per rank: " + issued(g);
    }

    /** "58 by ranks 0–2, 4–63; 57 by rank 3": ranks that issued as many share one entry, most first. */
    private static String issued(GroupSummary g) {
        Map<Integer, List<Integer>> byCount = new java.util.TreeMap<>(java.util.Comparator.reverseOrder());
        g.counts().forEach((rank, count) -> byCount.computeIfAbsent(count, c -> new ArrayList<>()).add(rank));
        return byCount.entrySet().stream().map(e -> e.getKey() + " by " + (e.getValue().size() == 1 ? "rank " : "ranks ")
                + RankRanges.text(e.getValue())).collect(Collectors.joining("; "));
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

    private static List<String[]> tailRows(List<StepTail> tails) {
        List<String[]> rows = new ArrayList<>();
        for (StepTail t : tails) {
            rows.add(new String[] {t.step(), Integer.toString(t.worstRank()), Units.ms(t.tailNs()), t.kind(),
                    Units.ms(t.minTailNs()), Integer.toString(t.ranks())});
        }
        return rows;
    }

    private static String esc(String s) {
        return MarkdownEscape.text(s);
    }
}
