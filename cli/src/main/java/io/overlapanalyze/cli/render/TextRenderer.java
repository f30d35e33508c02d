package io.overlapanalyze.cli.render;

import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.report.Totals;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
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

    @Override
    public void render(AnalysisReport report, Writer out) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(report.tool()).append('\n');
        if (report.ranks().isEmpty()) {
            sb.append("no rank traces found\n");
        }
        for (RankReport rank : report.ranks()) {
            sb.append('\n');
            renderRank(rank, sb);
        }
        if (report.crossRank() != null) {
            CrossRankSection.text(report.crossRank(), sb);
        }
        out.write(sb.toString());
        out.flush();
    }

    private void renderRank(RankReport rank, StringBuilder sb) {
        sb.append("rank ").append(rank.rank());
        if (rank.worldSize() != null) {
            sb.append(" of ").append(rank.worldSize());
        }
        sb.append("  ").append(rank.source()).append("  (").append(rank.format().toLowerCase(Locale.ROOT))
                .append(", rank from ").append(rank.rankSource().toLowerCase(Locale.ROOT).replace('_', ' '))
                .append(")\n");
        if (!rank.steps().isEmpty()) {
            sb.append("markers are ms after the step's first device activity; * = partial step\n\n");
            List<String[]> rows = new ArrayList<>();
            rows.add(HEADER);
            rows.add(HEADER2);
            for (StepReport s : rank.steps()) {
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
                        Units.ms(s.exposedCommNs()),
                        Units.pct(s.overlapRatio())});
            }
            Table.render(rows, 2, sb);
            for (StepReport s : rank.steps()) {
                if (s.tailNs() != null && s.tailNs() > 0 && !s.attribution().chain().isEmpty()) {
                    sb.append("  ").append(s.name()).append(" tail chain: ").append(chain(s)).append('\n');
                }
            }
        }
        summary(rank, sb);
        for (String note : rank.notes()) {
            sb.append("note: ").append(note).append('\n');
        }
        for (String warning : rank.warnings()) {
            sb.append("warning: ").append(warning).append('\n');
        }
    }

    static String chain(StepReport s) {
        List<String> parts = new ArrayList<>();
        for (ChainLink l : s.attribution().chain()) {
            parts.add(l.type() + " " + Units.bytes(l.bytes()) + " [" + Units.rel(l.startNs(), s.deviceStartNs())
                    + ", " + Units.rel(l.endNs(), s.deviceStartNs()) + "] " + l.boundBy());
        }
        return String.join(" <- ", parts);
    }

    private void summary(RankReport rank, StringBuilder sb) {
        Totals t = rank.totals();
        if (t == null || t.steps() == 0) {
            return;
        }
        Totals.Medians md = t.medians();
        sb.append('\n').append("summary over ").append(t.steps()).append(t.steps() == 1 ? " step" : " steps")
                .append(" (medians): step ").append(Units.ms(md.stepTimeNs())).append(" ms, tail ")
                .append(Units.ms(md.tailNs())).append(" ms, exposed comm ").append(Units.ms(md.exposedCommNs()))
                .append(" ms (gradients ").append(Units.ms(md.exposedGradCommNs())).append(" ms), overlap ")
                .append(Units.pct(md.overlapRatio())).append(", start delay ").append(Units.ms(md.startDelayNs()))
                .append(" ms\n");
        sb.append("totals: comm busy ").append(Units.ms(t.commBusyNs())).append(" ms, compute busy ")
                .append(Units.ms(t.computeBusyNs())).append(" ms, overlapped ").append(Units.ms(t.overlappedNs()))
                .append(" ms (").append(Units.pct(t.overlapRatio())).append(" of comm), exposed comm ")
                .append(Units.ms(t.exposedCommNs())).append(" ms, idle ").append(Units.ms(t.idleNs())).append(" ms\n");
        Map<TailKind, Integer> kinds = new EnumMap<>(TailKind.class);
        for (StepReport s : rank.steps()) {
            if (s.tailNs() != null && s.tailNs() > 0 && (!s.partial() || t.steps() > countComplete(rank))) {
                kinds.merge(s.attribution().kind(), 1, Integer::sum);
            }
        }
        kinds.entrySet().stream().max(Map.Entry.comparingByValue()).ifPresent(e ->
                sb.append("tail: ").append(e.getKey()).append(" in ").append(e.getValue()).append(" of ")
                        .append(t.steps()).append(" steps: ").append(Explanations.tail(e.getKey())).append('\n'));
    }

    private static int countComplete(RankReport rank) {
        int n = 0;
        for (StepReport s : rank.steps()) {
            if (!s.partial()) {
                n++;
            }
        }
        return n;
    }
}
