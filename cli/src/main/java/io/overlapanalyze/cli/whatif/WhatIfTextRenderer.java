package io.overlapanalyze.cli.whatif;

import io.overlapanalyze.render.escape.TerminalEscape;
import io.overlapanalyze.render.TextTable;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.whatif.CostModel;
import io.overlapanalyze.whatif.Span;
import io.overlapanalyze.whatif.TwoEngineReplay;
import io.overlapanalyze.whatif.WhatIfReport;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Locale;

/**
 * The what-if report for people: the cost model and its fit, a table of predicted step / tail /
 * exposed communication per option with the measured run on top, the recommendation and why, and
 * the recommended option's timeline drawn in characters.
 */
public final class WhatIfTextRenderer {
    /** Columns of the character timeline. */
    static final int WIDTH = 72;

    private WhatIfTextRenderer() {
    }

    public static void render(WhatIfReport r, Writer out) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(r.tool()).append(" what-if\n\n");
        sb.append(TerminalEscape.text(r.source())).append("  (").append(r.input()).append(r.input().equals("trace")
                ? ", " + r.steps().size() + " step(s) replayed; predictions are medians" : "").append(")\n");
        CostModel m = r.model();
        sb.append(String.format(Locale.ROOT, "cost model %s%s: time = alpha + bytes/beta, alpha %.1f us, beta %.3f "
                        + "GB/s; %s%n", m.type(), m.groupSize() > 0 ? " (" + m.groupSize() + " ranks)" : "",
                m.alphaNs() / 1e3, m.betaBytesPerNs(), fit(m)));
        sb.append('\n');

        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"option", "step ms", "tail ms", "exposed ms", "vs measured", "buckets", "largest",
                "first ready ms"});
        WhatIfReport.Measured me = r.measured();
        rows.add(new String[] {r.input().equals("trace") ? "measured (trace)" : "as given (scenario)",
                Units.ms(me.stepTimeNs()), Units.ms(me.tailNs()), Units.ms(me.exposedCommNs()), "",
                String.valueOf(me.buckets()), "", ""});
        for (WhatIfReport.Option o : r.options()) {
            String mark = (o.label().equals(r.recommended()) ? " <" : "") + (o.extrapolated() ? " *" : "");
            rows.add(new String[] {o.label() + mark, Units.ms(o.stepTimeNs()), Units.ms(o.tailNs()),
                    Units.ms(o.exposedCommNs()), change(o.stepTimeNs(), me.stepTimeNs()), String.valueOf(o.buckets()),
                    Units.bytes(o.largestBucketBytes()), Units.ms(o.firstBucketReadyNs())});
        }
        TextTable.render(rows, Set.of(0), sb);
        if (r.options().stream().anyMatch(WhatIfReport.Option::extrapolated)) {
            sb.append("* some buckets lie far outside the sizes the model was fitted on: extrapolated\n");
        }
        sb.append('\n');
        if (r.recommended() != null) {
            sb.append("recommended: ").append(TerminalEscape.text(r.recommended())).append("  (")
                    .append(effect(r.dominantEffect()))
                    .append(")\n");
        }
        wrap(r.reason(), "  ", sb);
        if (r.bestTimeline() != null) {
            sb.append('\n');
            timeline(r.bestTimeline(), sb);
        }
        if (!r.assumptions().isEmpty()) {
            sb.append("\nassumptions:\n");
            for (String a : r.assumptions()) {
                wrap("- " + a, "  ", sb);
            }
        }
        if (!r.warnings().isEmpty()) {
            sb.append("\nwarnings:\n");
            for (String w : r.warnings()) {
                wrap("- " + w, "  ", sb);
            }
        }
        out.write(sb.toString());
        out.flush();
    }

    private static String fit(CostModel m) {
        String r2 = m.r2() == null ? "R^2 n/a" : String.format(Locale.ROOT, "R^2 %.4f", m.r2());
        return String.format(Locale.ROOT, "%s, RMS residual %.1f us (%.1f%%), %d collectives of %s to %s: %s",
                r2, m.rmsResidualNs() / 1e3, m.rmsRelativeResidual() * 100, m.samples(),
                Units.bytes(m.minBytes()), m.maxBytes() == Long.MAX_VALUE ? "any size" : Units.bytes(m.maxBytes()),
                m.quality());
    }

    private static String effect(String dominant) {
        return switch (dominant) {
            case "LATE_FIRST_BUCKET" -> "the measured buckets are too big: late first bucket, long last transfer";
            case "PER_MESSAGE_LATENCY" -> "the measured buckets are too small: per-message latency";
            default -> "the measured bucketing is already close to the best";
        };
    }

    private static String change(long value, long base) {
        if (base == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%+.1f%%", (value - base) * 100.0 / base);
    }

    /**
     * Two rows of characters over [0, step end]: {@code #} where the compute engine is busy;
     * reductions alternate {@code =} and {@code -} so that neighbouring buckets stay apart.
     */
    static void timeline(WhatIfReport.Timeline t, StringBuilder sb) {
        long end = Math.max(1, t.stepTimeNs());
        char[] compute = new char[WIDTH];
        char[] comm = new char[WIDTH];
        java.util.Arrays.fill(compute, '.');
        java.util.Arrays.fill(comm, '.');
        for (Span s : t.compute()) {
            fill(compute, s.startNs(), s.endNs(), end, '#');
        }
        int i = 0;
        for (TwoEngineReplay.ReplayedBucket b : t.comm()) {
            fill(comm, b.startNs(), b.endNs(), end, i++ % 2 == 0 ? '=' : '-');
        }
        sb.append("timeline of ").append(TerminalEscape.text(t.label())).append(" (")
                .append(TerminalEscape.text(t.step())).append("), one column = ")
                .append(Units.ms(end / WIDTH)).append(" ms; tail ").append(Units.ms(t.tailNs())).append(" ms\n");
        sb.append("  compute |").append(compute).append("|\n");
        sb.append("  comm    |").append(comm).append("|\n");
        String right = Units.ms(end) + " ms";
        sb.append("          0").append(" ".repeat(Math.max(1, WIDTH - right.length()))).append(right).append('\n');
    }

    private static void fill(char[] row, long start, long end, long total, char c) {
        if (end <= start) {
            return;
        }
        int from = (int) Math.min(WIDTH - 1, start * WIDTH / total);
        int to = (int) Math.min(WIDTH - 1, Math.max(from, (end - 1) * WIDTH / total));
        for (int k = from; k <= to; k++) {
            row[k] = c;
        }
    }

    /** Wraps a long line at about 100 columns, continuation lines indented; the text is shown terminal-safe. */
    private static void wrap(String text, String indent, StringBuilder sb) {
        int limit = 100;
        StringBuilder line = new StringBuilder(indent.length() > 0 && !text.startsWith("-") ? indent : "");
        for (String word : TerminalEscape.text(text).split(" ")) {
            if (line.length() + word.length() + 1 > limit && line.toString().trim().length() > 0) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(indent);
            }
            line.append(word).append(' ');
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }
}
