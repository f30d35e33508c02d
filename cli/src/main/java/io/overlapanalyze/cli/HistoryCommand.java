package io.overlapanalyze.cli;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.cli.history.HistoryTable;
import io.overlapanalyze.cli.history.RunHistory;
import io.overlapanalyze.options.FormatOption;
import io.overlapanalyze.options.OutputOptions;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.reportfile.SummaryFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze history runs.db [--html FILE]}: the runs {@code summary --history} appended, with
 * their medians, as a table, and as line charts for a CI artifact.
 */
@Command(name = "history", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        versionProvider = VersionProvider.class,
        description = {"List the runs of a run history ('summary --history') with their median step time, tail, "
                + "exposed comm and idle; --html draws them per run."},
        footer = {"", "Exit codes: 0 ok, 2 bad usage or a missing, damaged or foreign database, 3 internal error."})
public final class HistoryCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DB", description = "The run history: a SQLite file or a JDBC URL.")
    String database;

    @Option(names = "--branch", paramLabel = "NAME", description = "Only runs of this branch (default: every branch).")
    String branch;

    @Option(names = "--last", paramLabel = "N", description = "Only the latest N runs (default: all).")
    Integer last;

    @Option(names = "--passed-only", description = "Only runs recorded as passing (the runs a gate's baseline uses).")
    boolean passedOnly;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write an HTML page with step time, tail, exposed comm and idle per run (no script).")
    Path html;

    @Mixin
    FormatOption format = new FormatOption();

    @Mixin
    OutputOptions out = new OutputOptions();


    @Override
    public Integer call() {
        if (last != null && last < 1) {
            throw new UserInputException("--last " + last + ": give at least 1 run");
        }
        List<Path> inputs = new ArrayList<>();
        if (database != null && !database.startsWith("jdbc:") && !database.isBlank()) {
            inputs.add(Path.of(database));
        }
        java.util.Map<String, Path> outputs = new java.util.LinkedHashMap<>();
        outputs.put("--html", html);
        outputs.put("-o", out.file() == null ? Path.of("-") : out.file());
        SafeOutput.requireDistinct(outputs);
        for (Path target : outputs.values()) {
            SafeOutput.check(target, inputs);
        }
        String shown = database.startsWith("jdbc:") ? database.replaceFirst("\\?.*", "") : database;
        HistoryTable table = new HistoryTable();
        AnalysisOptions options = AnalysisOptions.defaults();
        RunHistory.forEach(database, new RunHistory.Query(branch, passedOnly, last),
                run -> table.add(run, SummaryFile.read(run.source(shown), run.summary()), options));
        if (html != null) {
            SafeOutput.write(html, inputs, w -> table.html(shown, w));
        }
        out.write(spec.commandLine().getOut(), inputs, w -> {
            switch (format.format()) {
                case JSON -> table.json(shown, w);
                case MARKDOWN -> table.markdown(shown, w);
                default -> table.text(shown, w);
            }
        });
        return ExitCodes.OK;
    }
}
