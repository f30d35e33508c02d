package io.overlapanalyze.cli.compare;

import io.overlapanalyze.render.TextTable;
import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.escape.TerminalEscape;

import io.overlapanalyze.render.Explanations;
import io.overlapanalyze.reportfile.ReportJson;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.compare.BucketLayout;
import io.overlapanalyze.compare.DiffReport;
import io.overlapanalyze.compare.Metric;
import io.overlapanalyze.compare.StepMetric;
import io.overlapanalyze.compare.MetricChange;
import io.overlapanalyze.compare.RunSide;
import io.overlapanalyze.report.HumanTime;
import io.overlapanalyze.compare.Verdict;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.TailKind;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code diff} output: text, markdown or JSON views of one {@link DiffReport}. */
public final class DiffRenderer {
    private DiffRenderer() {
    }

    /** Output formats of diff and gate. */
    public enum Format {
        TEXT, JSON, MARKDOWN
    }

    public static void render(DiffReport d, Format format, Writer out) throws IOException {
        switch (format) {
            case JSON -> {
                ReportJson.mapper().writerWithDefaultPrettyPrinter().writeValue(new NonClosingWriter(out), d);
                out.write(System.lineSeparator());
            }
            case MARKDOWN -> out.write(markdown(d));
            default -> out.write(text(d));
        }
        out.flush();
    }

    static String text(DiffReport d) {
        StringBuilder sb = new StringBuilder();
        sb.append("overlap-analyze diff: medians over complete steps × ranks; significance by Mann-Whitney U at alpha ")
                .append(d.alpha()).append(" with ≥ ").append(d.minSamples()).append(" samples a side\n");
        sb.append("A: ").append(side(d.a())).append('\n');
        sb.append("B: ").append(side(d.b())).append("\n");
        comparability(d.comparability(), sb, false);
        sb.append('\n');
        TextTable.render(metricRows(d), Set.of(0, 6), sb);
        sb.append("\nstructure\n");
        TextTable.render(structureRows(d), Set.of(0, 1, 2), sb);
        sb.append('\n');
        for (String f : findings(d)) {
            sb.append("- ").append(TerminalEscape.text(f)).append('\n');
        }
        return sb.toString();
    }

    /**
     * One line on how comparable the runs are (metrics.md §10), only when they differ in something:
     * "comparability 0.75 (comparable): gradient collectives … differ". Returns whether it wrote one.
     */
    static boolean comparability(io.overlapanalyze.compare.Comparability c, StringBuilder sb, boolean markdown) {
        if (c == null || c.differences().isEmpty()) {
            return false;
        }
        String line = "comparability " + String.format(Locale.ROOT, "%.2f", c.score())
                + (c.comparable() ? " (comparable)" : " (NOT comparable)") + ": " + String.join("; ", c.differences());
        sb.append(markdown ? "**" + TextTable.md(line.substring(0, line.indexOf(':') + 1)) + "** "
                + TextTable.md(line.substring(line.indexOf(':') + 2)) : TerminalEscape.text(line)).append('\n');
        return true;
    }

    static String markdown(DiffReport d) {
        StringBuilder sb = new StringBuilder();
        sb.append("## overlap-analyze diff\n\n");
        sb.append("- **A**: ").append(MarkdownEscape.code(d.a().label())).append(" (")
                .append(TextTable.md(sideDetails(d.a()))).append(")\n");
        sb.append("- **B**: ").append(MarkdownEscape.code(d.b().label())).append(" (")
                .append(TextTable.md(sideDetails(d.b()))).append(")\n\n");
        sb.append("Medians over complete steps × ranks; significance by Mann-Whitney U at alpha ").append(d.alpha())
                .append(" with at least ").append(d.minSamples()).append(" samples a side.\n\n");
        if (comparability(d.comparability(), sb, true)) {
            sb.append('\n');
        }
        TextTable.markdown(metricRows(d), "lrrrrrl", sb);
        sb.append("\n### Gradient bucket structure\n\n");
        TextTable.markdown(structureRows(d), "lll", sb);
        sb.append('\n');
        for (String f : findings(d)) {
            sb.append("- ").append(TextTable.md(f)).append('\n');
        }
        return sb.toString();
    }

    private static String side(RunSide s) {
        return TerminalEscape.text(s.label() + "  (" + sideDetails(s) + ")");
    }

    static String sideDetails(RunSide s) {
        return s.origin() + ", " + s.ranks() + (s.ranks() == 1 ? " rank, " : " ranks, ") + s.steps()
                + (s.steps() == 1 ? " step" : " steps") + (s.wholeProfile() ? "; " + wholeProfile(s) : "");
    }

    /**
     * "whole profile: exposed comm rank 0 17.073 ms, rank 1 8.107 ms, together 25.180 ms; communication
     * launched before the capture 0.222 ms (with it 25.402 ms)": the totals another tool that reads the
     * whole capture (pre-capture work included) reports, from the figures the comparison uses.
     */
    static String wholeProfile(RunSide s) {
        List<String> parts = new ArrayList<>();
        long exposed = 0;
        long before = 0;
        boolean beforeKnown = true;
        for (RunSide.RankProfile p : s.profiles()) {
            parts.add("rank " + p.rank() + " " + HumanTime.ms(p.exposedCommNs()) + " ms");
            exposed += p.exposedCommNs();
            if (p.preCaptureCommNs() == null) {
                beforeKnown = false;
            } else {
                before += p.preCaptureCommNs();
            }
        }
        return "whole profile: exposed comm " + String.join(", ", parts) + ", together " + HumanTime.ms(exposed)
                + " ms; communication launched before the capture "
                + (beforeKnown ? HumanTime.ms(before) + " ms (with it " + HumanTime.ms(exposed + before) + " ms)"
                        : "not available (a saved summary or a rank without it)");
    }

    private static List<String[]> metricRows(DiffReport d) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"metric", "median A", "median B", "change", "relative", "n A / n B", "significance"});
        for (MetricChange c : d.metrics()) {
            StepMetric m = StepMetric.byKey(c.metric());
            rows.add(new String[] {Fmt.name(m), Fmt.value(c.unit(), c.medianA()), Fmt.value(c.unit(), c.medianB()),
                    Fmt.change(c.unit(), c.absChange()), Fmt.rel(c.relChange()), c.samplesA() + " / " + c.samplesB(),
                    Fmt.verdict(c.verdict(), c.pValue(), c.samplesA(), c.samplesB())});
        }
        return rows;
    }

    private static List<String[]> structureRows(DiffReport d) {
        BucketLayout a = d.structure().a();
        BucketLayout b = d.structure().b();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"", "A", "B"});
        rows.add(new String[] {"gradient buckets per step", count(a), count(b)});
        rows.add(new String[] {"bucket sizes, by start", layout(a), layout(b)});
        rows.add(new String[] {"last bucket (ends last)", last(a), last(b)});
        rows.add(new String[] {"tail (median)", a.tailNs() == null ? "-" : Units.ms(a.tailNs()) + " ms",
                b.tailNs() == null ? "-" : Units.ms(b.tailNs()) + " ms"});
        rows.add(new String[] {"tail cause, steps", kinds(a), kinds(b)});
        rows.add(new String[] {"tail chain, last first", chain(a), chain(b)});
        return rows;
    }

    private static String count(BucketLayout l) {
        return l.bucketsPerStep() == null ? "none" : Long.toString(l.bucketsPerStep());
    }

    private static String layout(BucketLayout l) {
        if (l.layout().isEmpty()) {
            return "none";
        }
        return Fmt.layout(l.layout(), 6) + (l.layoutSteps() == l.steps() ? "" : "  (in " + l.layoutSteps() + " of "
                + l.steps() + " steps)");
    }

    private static String last(BucketLayout l) {
        if (l.lastBucketIndex() == null) {
            return "-";
        }
        return "#" + l.lastBucketIndex() + ", " + Fmt.size(l.lastBucketBytes()) + ", reduction "
                + Units.ms(l.lastReduceNs()) + " ms";
    }

    private static String kinds(BucketLayout l) {
        if (l.tailKinds().isEmpty()) {
            return "-";
        }
        int total = l.tailKinds().values().stream().mapToInt(Integer::intValue).sum();
        if (l.tailKinds().size() == 1) {
            return l.tailKind() + " " + total + "/" + total;
        }
        return l.tailKinds().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static String chain(BucketLayout l) {
        if (l.tailChain().isEmpty()) {
            return "-";
        }
        return l.tailChain().stream().map(ChainLink::boundBy).map(Enum::name).collect(Collectors.joining(" → "))
                + "  (" + l.tailChainStep() + ")";
    }

    /** The few sentences a reader needs: what moved, and what the tail's cause says about it. */
    static List<String> findings(DiffReport d) {
        List<String> out = new ArrayList<>();
        List<String> significant = new ArrayList<>();
        boolean tooFew = false;
        for (MetricChange c : d.metrics()) {
            if (c.verdict() == Verdict.SIGNIFICANT) {
                significant.add(StepMetric.byKey(c.metric()).label() + " " + (c.relChange() != null
                        ? Fmt.rel(c.relChange()) : Fmt.change(c.unit(), c.absChange())));
            }
            tooFew |= c.verdict() == Verdict.TOO_FEW_SAMPLES;
        }
        if (!significant.isEmpty()) {
            out.add("significant changes: " + String.join(", ", significant) + ".");
        } else if (tooFew) {
            out.add("too few samples for a significance verdict (need " + d.minSamples()
                    + " complete steps × ranks a side): the changes above are medians only, not evidence.");
        } else {
            out.add("no significant change.");
        }
        MetricChange tail = d.metric(Metric.TAIL);
        if (tail != null && tail.absChange() != null) {
            out.add("tail " + Units.ms(tail.medianA().longValue()) + " → " + Units.ms(tail.medianB().longValue())
                    + " ms (" + Fmt.change(tail.unit(), tail.absChange()) + " ms): "
                    + Fmt.verdict(tail.verdict(), tail.pValue(), tail.samplesA(), tail.samplesB()) + ".");
        }
        BucketLayout a = d.structure().a();
        BucketLayout b = d.structure().b();
        if (d.structure().layoutChanged() && a.bucketsPerStep() != null && b.bucketsPerStep() != null) {
            out.add(String.format(Locale.ROOT, "bucket layout changed: %d → %d buckets per step; the last bucket "
                            + "%s → %s, its reduction %s → %s ms.", a.bucketsPerStep(), b.bucketsPerStep(),
                    Fmt.size(a.lastBucketBytes()), Fmt.size(b.lastBucketBytes()), Units.ms(a.lastReduceNs()),
                    Units.ms(b.lastReduceNs())));
        }
        TailKind ka = a.tailKind();
        TailKind kb = b.tailKind();
        if (d.structure().attributionChanged()) {
            out.add("tail cause " + ka + " → " + kb + ": " + Explanations.tail(kb) + ".");
        } else if (kb != null && kb == ka) {
            out.add("tail cause unchanged, " + kb + ": " + Explanations.tail(kb) + ".");
        }
        return out;
    }

    static final class NonClosingWriter extends java.io.FilterWriter {
        NonClosingWriter(Writer w) {
            super(w);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

}
