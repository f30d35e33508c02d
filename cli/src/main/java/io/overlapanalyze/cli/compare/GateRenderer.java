package io.overlapanalyze.cli.compare;

import io.overlapanalyze.render.TextTable;
import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.escape.TerminalEscape;
import io.overlapanalyze.render.escape.XmlEscape;

import io.overlapanalyze.reportfile.ReportJson;
import io.overlapanalyze.compare.GateCheck;
import io.overlapanalyze.compare.GateReport;
import io.overlapanalyze.compare.GateStatus;
import io.overlapanalyze.compare.MetricUnit;
import io.overlapanalyze.compare.StepMetric;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code gate} output: text, markdown (CI job summary), JSON and JUnit XML views of one {@link GateReport}. */
public final class GateRenderer {
    private GateRenderer() {
    }

    public static void render(GateReport g, DiffRenderer.Format format, Writer out) throws IOException {
        switch (format) {
            case JSON -> json(g, out);
            case MARKDOWN -> out.write(markdown(g));
            default -> out.write(text(g));
        }
        out.flush();
    }

    static void json(GateReport g, Writer out) throws IOException {
        ReportJson.mapper().writerWithDefaultPrettyPrinter().writeValue(new DiffRenderer.NonClosingWriter(out), g);
        out.write(System.lineSeparator());
        out.flush();
    }

    private static String headline(GateReport g) {
        long failed = count(g, GateStatus.REGRESSION);
        long inconclusive = count(g, GateStatus.INCONCLUSIVE);
        int n = g.checks().size();
        return switch (g.result()) {
            case REGRESSION -> "REGRESSION (" + failed + " of " + n + " checks failed"
                    + (inconclusive > 0 ? ", " + inconclusive + " inconclusive" : "") + ")";
            case INCONCLUSIVE -> "INCONCLUSIVE (" + inconclusive + " of " + n + " checks over their thresholds with too "
                    + "few samples to test)";
            default -> "pass (" + n + " checks" + (inconclusive > 0 ? ", " + inconclusive
                    + " inconclusive passed by --inconclusive pass" : "") + ")";
        };
    }

    private static long count(GateReport g, GateStatus status) {
        return g.checks().stream().filter(c -> c.status() == status).count();
    }

    /** An inconclusive check fails the gate unless the report says they pass. */
    private static boolean fails(GateReport g, GateCheck c) {
        return c.status() == GateStatus.REGRESSION
                || (c.status() == GateStatus.INCONCLUSIVE && !"pass".equals(g.inconclusive()));
    }

    static String text(GateReport g) {
        StringBuilder sb = new StringBuilder();
        sb.append("overlap-analyze gate: ").append(headline(g)).append('\n');
        sb.append("baseline: ").append(TerminalEscape.text(g.baseline().label())).append("  (")
                .append(TerminalEscape.text(DiffRenderer.sideDetails(g.baseline()))).append(")\n");
        sb.append("current:  ").append(TerminalEscape.text(g.current().label())).append("  (")
                .append(TerminalEscape.text(DiffRenderer.sideDetails(g.current()))).append(")\n");
        DiffRenderer.comparability(g.comparability(), sb, false);
        sb.append('\n');
        TextTable.render(rows(g), Set.of(0, 5, 6, 7), sb);
        sb.append('\n');
        for (GateCheck c : g.checks()) {
            if (c.status() != GateStatus.PASS || c.overThreshold()) {
                sb.append("- ").append(TerminalEscape.text(c.label())).append(": ").append(TerminalEscape.text(why(c)))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    static String markdown(GateReport g) {
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(g.result() == GateStatus.PASS ? "✅" : "❌").append(" overlap-analyze gate: ")
                .append(headline(g)).append("\n\n");
        sb.append("Baseline ").append(MarkdownEscape.code(g.baseline().label())).append(" (")
                .append(TextTable.md(DiffRenderer.sideDetails(g.baseline()))).append("), current ")
                .append(MarkdownEscape.code(g.current().label())).append(" (")
                .append(TextTable.md(DiffRenderer.sideDetails(g.current()))).append(").\n\n");
        if (DiffRenderer.comparability(g.comparability(), sb, true)) {
            sb.append('\n');
        }
        TextTable.markdown(rows(g), "lrrrrlll", sb);
        sb.append('\n');
        for (GateCheck c : g.checks()) {
            if (c.status() != GateStatus.PASS || c.overThreshold()) {
                sb.append("- **").append(TextTable.md(c.label())).append("**: ").append(TextTable.md(why(c)))
                        .append('\n');
            }
        }
        sb.append("\nMedians over complete steps × ranks. A check fails when the increase is over both thresholds "
                + "and significant (Mann-Whitney U, alpha ").append(g.alpha()).append(", with at least ")
                .append(g.minSamples()).append(" samples a side; with fewer it is inconclusive).\n");
        return sb.toString();
    }

    private static List<String[]> rows(GateReport g) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"check", "baseline", "current", "change", "relative", "fails when", "significance",
                "status"});
        for (GateCheck c : g.checks()) {
            if (c.metric().equals(GateCheck.CROSS_RANK_ERRORS)) {
                rows.add(new String[] {c.label(), Fmt.value(c.unit(), c.baseline()), Fmt.value(c.unit(), c.current()),
                        Fmt.change(c.unit(), c.absChange()), "-",
                        c.overThreshold() && c.status() == GateStatus.PASS ? "allowed (--allow-mismatch)" : "any ERROR",
                        "-", c.status().name()});
                continue;
            }
            rows.add(new String[] {Fmt.name(StepMetric.byKey(c.metric())), Fmt.value(c.unit(), c.baseline()),
                    Fmt.value(c.unit(), c.current()), Fmt.change(c.unit(), c.absChange()), Fmt.rel(c.relChange()),
                    Fmt.threshold(c.maxIncrease(), c.minDelta()),
                    Fmt.verdict(c.verdict(), c.pValue(), c.samplesBaseline(), c.samplesCurrent()), c.status().name()});
        }
        return rows;
    }

    /** The check's reason with its p-value when there is one. */
    private static String why(GateCheck c) {
        return c.reason() + (c.pValue() == null ? "" : " (p=" + Fmt.p(c.pValue()) + ")");
    }

    /** "tail 1.000 → 8.000 ms (+7.000 ms, +700.0%), fails when > +10% and ≥ 0.100 ms: over thresholds and significant (p=0.0039)". */
    static String sentence(GateCheck c) {
        if (c.metric().equals(GateCheck.CROSS_RANK_ERRORS)) {
            return c.label() + " " + Fmt.value(c.unit(), c.current()) + ": " + c.reason();
        }
        StepMetric m = StepMetric.byKey(c.metric());
        String p = c.pValue() == null ? "" : " (p=" + Fmt.p(c.pValue()) + ")";
        return m.label() + " " + Fmt.value(c.unit(), c.baseline()) + " → " + Fmt.value(c.unit(), c.current())
                + " ms (" + Fmt.change(c.unit(), c.absChange()) + " ms, " + Fmt.rel(c.relChange())
                + "), fails when " + Fmt.threshold(c.maxIncrease(), c.minDelta()) + ": " + c.reason() + p;
    }

    /**
     * JUnit XML (the Ant/Surefire schema every CI reads): one test case per checked metric, a
     * {@code failure} with the numbers for a regression, {@code skipped} for a check that could
     * not run.
     */
    public static String junit(GateReport g) {
        StringWriter sw = new StringWriter();
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(sw);
            long failures = g.checks().stream().filter(c -> fails(g, c)).count();
            long skipped = g.checks().stream().filter(c -> c.status() == GateStatus.SKIPPED).count();
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuites");
            x.writeAttribute("name", "overlap-analyze gate");
            x.writeAttribute("tests", Integer.toString(g.checks().size()));
            x.writeAttribute("failures", Long.toString(failures));
            x.writeCharacters("\n  ");
            x.writeStartElement("testsuite");
            x.writeAttribute("name", "overlap-analyze gate");
            x.writeAttribute("tests", Integer.toString(g.checks().size()));
            x.writeAttribute("failures", Long.toString(failures));
            x.writeAttribute("errors", "0");
            x.writeAttribute("skipped", Long.toString(skipped));
            x.writeCharacters("\n    ");
            x.writeStartElement("properties");
            property(x, "baseline", g.baseline().label() + " (" + DiffRenderer.sideDetails(g.baseline()) + ")");
            property(x, "current", g.current().label() + " (" + DiffRenderer.sideDetails(g.current()) + ")");
            property(x, "tool", g.tool());
            x.writeCharacters("\n    ");
            x.writeEndElement();
            for (GateCheck c : g.checks()) {
                x.writeCharacters("\n    ");
                x.writeStartElement("testcase");
                x.writeAttribute("classname", "overlap-analyze.gate");
                x.writeAttribute("name", XmlEscape.chars(c.metric()));
                x.writeAttribute("time", "0");
                String sentence = sentence(c);
                if (fails(g, c)) {
                    x.writeCharacters("\n      ");
                    x.writeStartElement("failure");
                    x.writeAttribute("type", c.status() == GateStatus.INCONCLUSIVE ? "inconclusive" : "regression");
                    x.writeAttribute("message", XmlEscape.chars(sentence));
                    x.writeCharacters(XmlEscape.chars(sentence) + "\nbaseline samples " + c.samplesBaseline()
                            + ", current samples "
                            + c.samplesCurrent() + "; values" + (c.unit() == MetricUnit.NS ? " in ns" : "") + ": baseline " + c.baseline() + ", current "
                            + c.current() + ", change " + c.absChange());
                    x.writeEndElement();
                    x.writeCharacters("\n    ");
                } else if (c.status() == GateStatus.SKIPPED) {
                    x.writeCharacters("\n      ");
                    x.writeEmptyElement("skipped");
                    x.writeAttribute("message", XmlEscape.chars(c.reason()));
                    x.writeCharacters("\n    ");
                } else {
                    x.writeCharacters("\n      ");
                    x.writeStartElement("system-out");
                    x.writeCharacters(XmlEscape.chars(sentence));
                    x.writeEndElement();
                    x.writeCharacters("\n    ");
                }
                x.writeEndElement();
            }
            x.writeCharacters("\n  ");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write JUnit XML", e);
        }
        return sw.toString();
    }

    private static void property(XMLStreamWriter x, String name, String value) throws XMLStreamException {
        x.writeCharacters("\n      ");
        x.writeEmptyElement("property");
        x.writeAttribute("name", name);
        x.writeAttribute("value", XmlEscape.chars(value));
    }
}
