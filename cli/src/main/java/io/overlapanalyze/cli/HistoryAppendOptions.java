package io.overlapanalyze.cli;

import io.overlapanalyze.cli.history.HistoryRun;
import io.overlapanalyze.cli.history.RunHistory;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.reportfile.SummaryFile;
import io.overlapanalyze.report.AnalysisReport;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code summary --history DB}: the options that append the run's summary to a run history
 * ({@link RunHistory}), with its commit, branch, time and labels (a picocli mixin).
 */
final class HistoryAppendOptions {
    @Option(names = "--history", paramLabel = "DB",
            description = "Also append the summary to this run history (a SQLite file, created when missing, or a "
                    + "JDBC URL), with commit, branch, time and labels; 'gate --baseline-history' reads it.")
    String history;

    @Option(names = "--label", paramLabel = "KEY=VALUE",
            description = "A label recorded with the run in the history (repeatable), e.g. --label gpu=A100.")
    List<String> labels = new ArrayList<>();

    @Option(names = "--commit", paramLabel = "SHA",
            description = "The commit recorded in the history (default: $GITHUB_SHA or $CI_COMMIT_SHA; else none).")
    String commit;

    @Option(names = "--branch", paramLabel = "NAME",
            description = "The branch recorded in the history (default: $GITHUB_REF_NAME or $CI_COMMIT_REF_NAME; "
                    + "else none).")
    String branch;

    @Option(names = "--passed", description = "Record the run as passing: a baseline for later gates (the default).")
    boolean passed;

    @Option(names = "--failed", description = "Record the run as failing: kept in the history, never a baseline.")
    boolean failed;

    /** Bad usage before any work: history options without {@code --history}, both verdicts, a label without '='. */
    void check() {
        if (passed && failed) {
            throw new UserInputException("--passed and --failed: give one");
        }
        if (history == null && (!labels.isEmpty() || commit != null || branch != null || passed || failed)) {
            throw new UserInputException("--label, --commit, --branch, --passed and --failed describe a run appended "
                    + "to a history: give --history DB too");
        }
        labelMap();
    }

    private Map<String, String> labelMap() {
        Map<String, String> out = new TreeMap<>();
        for (String l : labels) {
            int eq = l.indexOf('=');
            if (eq <= 0) {
                throw new UserInputException("--label " + Messages.quote(l) + ": give KEY=VALUE (e.g. gpu=A100)");
            }
            String key = l.substring(0, eq);
            if (out.put(key, l.substring(eq + 1)) != null) {
                throw new UserInputException("--label: " + Messages.quote(key) + " given twice");
            }
        }
        return out;
    }

    /** Appends {@code report}'s summary when {@code --history} was given; says so on {@code err}. */
    void append(AnalysisReport report, Map<String, String> env, PrintWriter err) {
        if (history == null) {
            return;
        }
        StringWriter json = new StringWriter();
        try {
            SummaryFile.write(report, json);
        } catch (IOException e) {
            throw new IllegalStateException("writing to a string", e);
        }
        String c = commit != null ? commit : firstSet(env, "GITHUB_SHA", "CI_COMMIT_SHA");
        String b = branch != null ? branch : firstSet(env, "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME");
        HistoryRun run = new HistoryRun(null, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), c, b,
                labelMap(), !failed, json.toString());
        long id = RunHistory.append(history, run);
        err.println("overlap-analyze: run " + id + " appended to " + Messages.printable(history.startsWith("jdbc:")
                ? history.replaceFirst("\\?.*", "") : history) + (failed ? " (as failed)" : ""));
        err.flush();
    }

    private static String firstSet(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return null;
    }
}
