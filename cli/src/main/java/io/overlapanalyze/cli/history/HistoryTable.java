package io.overlapanalyze.cli.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.compare.Metric;
import io.overlapanalyze.compare.MetricUnit;
import io.overlapanalyze.compare.Run;
import io.overlapanalyze.compare.StepMetric;
import io.overlapanalyze.formats.ToolFile;
import io.overlapanalyze.render.escape.MarkdownEscape;
import io.overlapanalyze.render.escape.TerminalEscape;
import io.overlapanalyze.render.html.HistoryHtml;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.reportfile.ReportJson;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code history} command's listing: per run its id, time, commit, branch, labels, whether it passed, and
 * the medians of step time, tail, exposed communication and idle over its complete steps and ranks (the samples
 * a gate compares). As text, markdown, JSON ({@code "kind": "overlap-analyze history"}) or an HTML page.
 */
public final class HistoryTable {
    /** The {@code kind} of the JSON listing. */

    /** Idle in the step's period (metrics.md §5), which the diff does not list. */
    private static final StepMetric IDLE = new StepMetric() {
        @Override
        public String key() {
            return "idle";
        }

        @Override
        public String label() {
            return "idle";
        }

        @Override
        public MetricUnit unit() {
            return MetricUnit.NS;
        }

        @Override
        public Number of(StepReport step) {
            return step.idleNs();
        }

        @Override
        public boolean onlyWhenPresent() {
            return false;
        }
    };

    private final List<Row> rows = new ArrayList<>();

    /**
     * One run with its medians ({@code null}: no complete step defines the value).
     *
     * @param ranks the number of ranks in its summary
     */
    public record Row(HistoryRun run, int ranks, Long stepNs, Long tailNs, Long exposedNs, Long idleNs) {
    }

    /** Adds a run whose summary was read back as {@code report}. */
    public void add(HistoryRun run, AnalysisReport report, AnalysisOptions options) {
        Run r = new Run("run " + run.id(), "history", report.ranks());
        rows.add(new Row(run, report.ranks().size(), median(r, Metric.STEP_TIME, options),
                median(r, Metric.TAIL, options), median(r, Metric.EXPOSED_COMM, options), median(r, IDLE, options)));
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    private static Long median(Run run, StepMetric m, AnalysisOptions options) {
        Number v = run.samples(m, options).median();
        return v == null ? null : v.longValue();
    }

    /** A table for the terminal; every string from the database goes through {@link TerminalEscape}. */
    public void text(String database, Writer w) throws IOException {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[]{"run", "time", "commit", "branch", "passed", "step ms", "tail ms", "exposed ms",
                "idle ms", "labels"});
        for (Row r : rows) {
            HistoryRun h = r.run();
            cells.add(new String[]{String.valueOf(h.id()), TerminalEscape.text(h.time()),
                    h.commit() == null ? "-" : TerminalEscape.text(shortCommit(h.commit())),
                    h.branch() == null ? "-" : TerminalEscape.text(h.branch()), h.passed() ? "yes" : "no",
                    Units.ms(r.stepNs()), Units.ms(r.tailNs()), Units.ms(r.exposedNs()), Units.ms(r.idleNs()),
                    TerminalEscape.text(labels(h.labels()))});
        }
        int[] width = new int[cells.get(0).length];
        for (String[] row : cells) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        w.write("overlap-analyze history: " + TerminalEscape.text(database) + ", " + rows.size()
                + (rows.size() == 1 ? " run" : " runs") + " (medians over each run's complete steps and ranks)\n");
        for (String[] row : cells) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                boolean right = i == 0 || (i >= 5 && i <= 8);
                String c = row[i];
                String pad = " ".repeat(width[i] - c.length());
                line.append(i == 0 ? "" : "  ").append(right ? pad + c : i == row.length - 1 ? c : c + pad);
            }
            w.write(line.toString().stripTrailing() + "\n");
        }
        w.flush();
    }

    /** A GitHub-flavoured markdown table; every string from the database goes through {@link MarkdownEscape}. */
    public void markdown(String database, Writer w) throws IOException {
        w.write("### Run history: " + MarkdownEscape.text(database) + "\n\n");
        w.write("| run | time | commit | branch | passed | step ms | tail ms | exposed ms | idle ms | labels |\n");
        w.write("|---:|---|---|---|---|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            HistoryRun h = r.run();
            w.write("| " + h.id() + " | " + MarkdownEscape.text(h.time()) + " | "
                    + (h.commit() == null ? "-" : MarkdownEscape.code(shortCommit(h.commit()))) + " | "
                    + (h.branch() == null ? "-" : MarkdownEscape.text(h.branch())) + " | " + (h.passed() ? "yes" : "no")
                    + " | " + Units.ms(r.stepNs()) + " | " + Units.ms(r.tailNs()) + " | " + Units.ms(r.exposedNs())
                    + " | " + Units.ms(r.idleNs()) + " | " + MarkdownEscape.text(labels(h.labels())) + " |\n");
        }
        w.flush();
    }

    /** JSON: times in ns, {@code null} where no step defines the value. Field names are a contract. */
    public void json(String database, Writer w) throws IOException {
        ObjectMapper mapper = ReportJson.mapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("kind", ToolFile.HISTORY.kind());
        root.put("schemaVersion", RunHistory.SCHEMA_VERSION);
        root.put("database", database);
        ArrayNode runs = root.putArray("runs");
        for (Row r : rows) {
            HistoryRun h = r.run();
            ObjectNode n = runs.addObject();
            n.put("id", h.id());
            n.put("time", h.time());
            n.put("commit", h.commit());
            n.put("branch", h.branch());
            ObjectNode labels = n.putObject("labels");
            h.labels().forEach(labels::put);
            n.put("passed", h.passed());
            n.put("ranks", r.ranks());
            n.put("stepTimeNs", r.stepNs());
            n.put("tailNs", r.tailNs());
            n.put("exposedCommNs", r.exposedNs());
            n.put("idleNs", r.idleNs());
        }
        mapper.writerWithDefaultPrettyPrinter().writeValue(new NonClosing(w), root);
        w.write("\n");
        w.flush();
    }

    /** The HTML page with a line chart per metric. */
    public void html(String database, Writer w) throws IOException {
        List<HistoryHtml.Point> points = new ArrayList<>();
        for (Row r : rows) {
            HistoryRun h = r.run();
            points.add(new HistoryHtml.Point(h.id(), h.time(), h.commit(), h.branch(), h.passed(), r.stepNs(),
                    r.tailNs(), r.exposedNs(), r.idleNs()));
        }
        HistoryHtml.write("Run history: " + database, points, w);
    }

    private static String shortCommit(String c) {
        return c.length() > 12 ? c.substring(0, 12) : c;
    }

    private static String labels(Map<String, String> labels) {
        StringBuilder b = new StringBuilder();
        labels.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    private static final class NonClosing extends java.io.FilterWriter {
        NonClosing(Writer w) {
            super(w);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
