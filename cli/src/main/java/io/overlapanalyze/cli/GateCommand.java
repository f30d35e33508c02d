package io.overlapanalyze.cli;

import io.overlapanalyze.options.StderrWarnings;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.cli.compare.DiffRenderer;
import io.overlapanalyze.cli.compare.GateRenderer;
import io.overlapanalyze.reportfile.RunLoader;
import io.overlapanalyze.cli.compare.ThresholdValues;
import io.overlapanalyze.compare.AnnotationMetric;
import io.overlapanalyze.compare.GatePolicy;
import io.overlapanalyze.compare.GateCheck;
import io.overlapanalyze.compare.GateReport;
import io.overlapanalyze.compare.GateStatus;
import io.overlapanalyze.compare.GateThreshold;
import io.overlapanalyze.compare.Metric;
import io.overlapanalyze.compare.Run;
import io.overlapanalyze.options.FormatOption;
import io.overlapanalyze.options.TraceInputs;
import io.overlapanalyze.options.UserInputException;
import io.overlapanalyze.pipeline.PipelineInput;
import io.overlapanalyze.pipeline.Version;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code overlap-analyze gate --baseline BASE CURRENT}: fails CI (exit 1) when the tail, the
 * exposed communication or the step time grew beyond its thresholds, significantly.
 */
@Command(name = "gate", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        versionProvider = VersionProvider.class,
        description = {"Check a run against a baseline for CI: exit 1 when tail, exposed comm or step time regressed.",
                "",
                "A check fails when its median grew by more than its relative threshold AND by at least its "
                        + "absolute one, and the growth is significant (Mann-Whitney U, when both runs have at least 5 "
                        + "complete steps × ranks). A growth over the thresholds with fewer samples is INCONCLUSIVE, "
                        + "which fails too unless --inconclusive pass. A cross-rank ERROR in the current run (the job "
                        + "would hang) fails the check crossRankErrors unless --allow-mismatch. "
                        + "Improvements never fail. BASE and CURRENT are each traces, a directory of traces, or a "
                        + "saved summary ('summary'); or the baseline is the last passing runs of a run history "
                        + "('summary --history'), their steps pooled (--baseline-history DB [--last N] [--branch NAME])."},
        footer = {"", "Defaults: tail +10%% and 0.1ms, exposed comm +10%% and 0.1ms, step time +5%% and 0.5ms; fused busy "
                        + "+10%% and 0.1ms, checked when both runs have fused kernels; a user annotation's exposed comm +10%% "
                        + "and 0.1ms, checked when asked (--check annotations, --check annotation:NAME).",
                "Exit codes: 0 pass, 1 regression (or inconclusive, or a cross-rank error), 2 bad usage or unreadable "
                        + "input, 3 internal error."})
public final class GateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TraceInputs inputs = new TraceInputs();

    @Option(names = "--baseline", paramLabel = "BASE",
            description = "The baseline: a saved summary, traces or a directory (or --baseline-history).")
    Path baseline;

    @Mixin
    HistoryBaseline history = new HistoryBaseline();

    @Parameters(paramLabel = "CURRENT", arity = "1..*", description = "The run to check: traces, a directory or a summary.")
    List<Path> current = new ArrayList<>();

    @Option(names = "--max-tail-increase", paramLabel = "PCT", defaultValue = "10%",
            description = "Relative tail threshold (default ${DEFAULT-VALUE}; 'off': absolute only).")
    String maxTail;

    @Option(names = "--min-tail-delta", paramLabel = "TIME", defaultValue = "0.1ms",
            description = "Smallest tail increase that can fail (default ${DEFAULT-VALUE}).")
    String minTail;

    @Option(names = "--max-exposed-comm-increase", paramLabel = "PCT", defaultValue = "10%",
            description = "Relative exposed-comm threshold (default ${DEFAULT-VALUE}).")
    String maxExposed;

    @Option(names = "--min-exposed-comm-delta", paramLabel = "TIME", defaultValue = "0.1ms",
            description = "Smallest exposed-comm increase that can fail (default ${DEFAULT-VALUE}).")
    String minExposed;

    @Option(names = "--max-step-time-increase", paramLabel = "PCT", defaultValue = "5%",
            description = "Relative step-time threshold (default ${DEFAULT-VALUE}).")
    String maxStep;

    @Option(names = "--min-step-time-delta", paramLabel = "TIME", defaultValue = "0.5ms",
            description = "Smallest step-time increase that can fail (default ${DEFAULT-VALUE}).")
    String minStep;

    @Option(names = "--max-fused-busy-increase", paramLabel = "PCT", defaultValue = "10%",
            description = "Relative threshold on time in fused compute-communication kernels, checked when both "
                    + "runs have them (default ${DEFAULT-VALUE}).")
    String maxFused;

    @Option(names = "--min-fused-busy-delta", paramLabel = "TIME", defaultValue = "0.1ms",
            description = "Smallest fused-busy increase that can fail (default ${DEFAULT-VALUE}).")
    String minFused;

    @Option(names = "--check", paramLabel = "WHAT",
            description = {"Also check, besides the step-level checks: 'annotations' (the exposed communication of "
                    + "every user annotation both runs have) or 'annotation:NAME' (that annotation's). Repeatable."})
    List<String> extraChecks = new ArrayList<>();

    @Option(names = "--max-annotation-exposed-increase", paramLabel = "PCT", defaultValue = "10%",
            description = "Relative threshold on each checked user annotation's exposed communication (micro-batch "
                    + "overlap; see --check) (default ${DEFAULT-VALUE}).")
    String maxAnnotation;

    @Option(names = "--min-annotation-exposed-delta", paramLabel = "TIME", defaultValue = "0.1ms",
            description = "Smallest increase of an annotation's exposed communication that can fail "
                    + "(default ${DEFAULT-VALUE}).")
    String minAnnotation;

    @Option(names = "--alpha", paramLabel = "P", defaultValue = "0.05",
            description = "Significance level (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--markdown", paramLabel = "FILE",
            description = "Also write a markdown table (e.g. to $GITHUB_STEP_SUMMARY).")
    Path markdown;

    @Option(names = "--markdown-append", negatable = true,
            description = "Append the markdown to FILE instead of replacing it (default: append when FILE is "
                    + "$GITHUB_STEP_SUMMARY, which collects every step's summary; --no-markdown-append replaces).")
    Boolean markdownAppend;

    /** The environment: {@code GITHUB_STEP_SUMMARY} decides whether markdown appends by default. */
    private final java.util.Map<String, String> env;

    public GateCommand() {
        this(System.getenv());
    }

    GateCommand(java.util.Map<String, String> env) {
        this.env = env;
    }

    @Option(names = "--junit", paramLabel = "FILE", description = "Also write JUnit XML, one test case per check.")
    Path junit;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the result as JSON.")
    Path json;

    @Mixin
    FormatOption format = new FormatOption();


    @Option(names = "--allow-unreadable",
            description = "Check the readable traces when some input cannot be read, with a warning naming it "
                    + "(default: exit 2, since a check must not pass on input it could not read).")
    boolean allowUnreadable;

    @Option(names = "--allow-incomparable",
            description = "Check runs that are not comparable (another world size, other ranks, other step names: "
                    + "metrics.md §10), with a warning (default: exit 2 naming the differences).")
    boolean allowIncomparable;

    @Option(names = "--allow-mismatch",
            description = "Pass a current run with a cross-rank ERROR (collectives that differ between ranks: the job "
                    + "would hang or reduce the wrong data), with a warning (default: the check crossRankErrors fails).")
    boolean allowMismatch;

    /** What a check over its thresholds with too few samples to test does to the gate. */
    enum Inconclusive { FAIL, PASS }

    @Option(names = "--inconclusive", paramLabel = "fail|pass", defaultValue = "fail",
            description = "A check over its thresholds with too few samples (under 5 a side) to tell the change from "
                    + "noise is INCONCLUSIVE: 'fail' fails the gate (default), 'pass' passes it with a warning.")
    Inconclusive inconclusive;

    @Override
    public Integer call() {
        ThresholdValues.checkAlpha(alpha);
        List<GateThreshold> thresholds = new ArrayList<>(List.of(
                new GateThreshold("tail", ThresholdValues.percent("--max-tail-increase", maxTail),
                        ThresholdValues.duration("--min-tail-delta", minTail)),
                new GateThreshold("exposedComm", ThresholdValues.percent("--max-exposed-comm-increase", maxExposed),
                        ThresholdValues.duration("--min-exposed-comm-delta", minExposed)),
                new GateThreshold("stepTime", ThresholdValues.percent("--max-step-time-increase", maxStep),
                        ThresholdValues.duration("--min-step-time-delta", minStep))));
        GateThreshold fused = new GateThreshold("fusedBusy", ThresholdValues.percent("--max-fused-busy-increase",
                maxFused), ThresholdValues.duration("--min-fused-busy-delta", minFused));
        Double annotationIncrease = ThresholdValues.percent("--max-annotation-exposed-increase", maxAnnotation);
        long annotationDelta = ThresholdValues.duration("--min-annotation-exposed-delta", minAnnotation);
        PipelineInput pipelineInput = inputs.pipeline(List.of());
        AnalysisOptions options = pipelineInput.options();
        java.util.Map<String, Path> outputs = new java.util.LinkedHashMap<>();
        outputs.put("--markdown", markdown);
        outputs.put("--junit", junit);
        outputs.put("--json", json);
        outputs.put("the report (standard output)", Path.of("-"));
        SafeOutput.requireDistinct(outputs);
        history.checkUsage(baseline);
        // Each side expanded once, the current run first (as the user typed them), before any output is checked.
        RunLoader.Kinds currentKinds = new RunLoader.Kinds(pipelineInput.formats());
        TraceInputs.Expanded currentFiles = inputs.expand(pipelineInput.withPaths(current), currentKinds);
        RunLoader.Kinds baseKinds = new RunLoader.Kinds(pipelineInput.formats());
        TraceInputs.Expanded baseFiles = baseline == null ? null
                : inputs.expand(pipelineInput.withPaths(List.of(baseline)), baseKinds);
        List<Path> touched = new ArrayList<>(currentFiles.touched());
        if (baseFiles != null) {
            touched.addAll(baseFiles.touched());
        }
        touched.addAll(history.files());
        for (Path target : outputs.values()) {
            SafeOutput.check(target, touched);
        }
        RunLoader.Loaded baseSide = baseFiles == null ? history.load(pipelineInput)
                : RunLoader.load(baseline.toString(), baseFiles.pipeline(), baseFiles.files(), baseKinds, false);
        String currentLabel = current.size() == 1 ? current.get(0).toString()
                : current.get(0) + " (+" + (current.size() - 1) + " more)";
        RunLoader.Loaded currentSide = RunLoader.load(currentLabel, currentFiles.pipeline(), currentFiles.files(), currentKinds, true);
        StderrWarnings.notes(spec.commandLine().getErr(), RunLoader.skipped(baseSide, currentSide));
        requireReadable(baseSide, currentSide);
        Run base = baseSide.run();
        Run run = currentSide.run();
        RunLoader.Comparison how = RunLoader.comparison(options, "the baseline", baseSide, "the current run",
                currentSide);
        options = how.options();
        if (base.samples(Metric.FUSED_BUSY, options).size() > 0 && run.samples(Metric.FUSED_BUSY, options).size() > 0) {
            thresholds.add(fused);
        }
        for (AnnotationMetric m : annotationChecks(base, run, options)) {
            thresholds.add(new GateThreshold(m.key(), annotationIncrease, annotationDelta));
        }
        GateReport evaluated = GateReport.evaluate(base, run, thresholds, options, alpha, Version.tool(),
                new GatePolicy(allowMismatch, inconclusive == Inconclusive.PASS));
        // A current run that would hang fails whatever it is compared with: refusing it as incomparable
        // (exit 2) would read as bad usage, not as the failure it is.
        boolean failsOnErrors = evaluated.checks().stream().anyMatch(c -> GateCheck.CROSS_RANK_ERRORS.equals(c.metric())
                && c.status() == GateStatus.REGRESSION);
        if (!evaluated.comparability().comparable() && !allowIncomparable && !failsOnErrors) {
            throw new UserInputException(evaluated.comparability().warning("the baseline and the current run")
                    + "; a gate does not compare two different jobs (--allow-incomparable checks them anyway)");
        }
        List<String> warnings = new ArrayList<>(how.warnings());
        warnings.addAll(evaluated.warnings());
        GateReport report = evaluated.withWarnings(RunLoader.withUnreadable(warnings, "baseline", baseSide,
                "current", currentSide));
        StderrWarnings.lines(spec.commandLine().getErr(), report.warnings());

        if (markdown != null) {
            SafeOutput.TextContent md = w -> GateRenderer.render(report, DiffRenderer.Format.MARKDOWN, w);
            if (appendMarkdown()) {
                SafeOutput.append(markdown, touched, md);
            } else {
                SafeOutput.write(markdown, touched, md);
            }
        }
        if (junit != null) {
            SafeOutput.write(junit, touched, w -> w.write(GateRenderer.junit(report)));
        }
        if (json != null) {
            SafeOutput.write(json, touched, w -> GateRenderer.render(report, DiffRenderer.Format.JSON, w));
        }
        PrintWriter out = spec.commandLine().getOut();
        try {
            GateRenderer.render(report, DiffRenderer.Format.valueOf(format.format().name()), out);
        } catch (IOException e) {
            throw new UserInputException("cannot write to standard output: " + e.getMessage(), e);
        }
        return report.result() == GateStatus.PASS ? ExitCodes.OK : ExitCodes.REGRESSION;
    }

    /**
     * Whether {@code --markdown} appends: as asked, else when it is the GitHub job summary
     * ({@code $GITHUB_STEP_SUMMARY}), which GitHub means to be appended to by every step (replacing it
     * would drop what earlier steps wrote).
     */
    private boolean appendMarkdown() {
        if (markdownAppend != null) {
            return markdownAppend;
        }
        String summary = env.get("GITHUB_STEP_SUMMARY");
        if (summary == null || summary.isEmpty()) {
            return false;
        }
        Path s;
        try {
            s = Path.of(summary);
        } catch (java.nio.file.InvalidPathException e) {
            return false;
        }
        try {
            if (java.nio.file.Files.exists(s) && java.nio.file.Files.exists(markdown)) {
                return java.nio.file.Files.isSameFile(s, markdown);
            }
        } catch (IOException e) {
            // Compared by name below.
        }
        return s.toAbsolutePath().normalize().equals(markdown.toAbsolutePath().normalize());
    }

    /**
     * The per-annotation checks asked for with {@code --check}: none by default (a run with many
     * annotations would bury the step-level checks under rows that rarely move), every name both runs
     * have for {@code annotations}, and each {@code annotation:NAME}. A named annotation neither run has
     * is bad usage (a typo must not pass as a check); one only a side has is a SKIPPED check.
     */
    private List<AnnotationMetric> annotationChecks(Run base, Run run, AnalysisOptions options) {
        java.util.Set<AnnotationMetric> out = new java.util.LinkedHashSet<>();
        for (String what : extraChecks) {
            if (what.equals("annotations")) {
                out.addAll(AnnotationMetric.common(base, run, options));
            } else if (what.startsWith("annotation:") && what.length() > "annotation:".length()) {
                String name = what.substring("annotation:".length());
                java.util.Set<String> known = new java.util.TreeSet<>(AnnotationMetric.names(base, options));
                known.addAll(AnnotationMetric.names(run, options));
                if (!known.contains(name)) {
                    throw new UserInputException("--check " + what + ": neither run has an annotation named '" + name
                            + "'" + (known.isEmpty() ? " (they have no user annotation)"
                            : " (they have: " + String.join(", ", known.stream().limit(10).toList())
                            + (known.size() > 10 ? ", ..." : "") + ")"));
                }
                out.add(new AnnotationMetric(name));
            } else {
                throw new UserInputException("--check: unknown check '" + what + "'; use 'annotations' or "
                        + "'annotation:NAME'");
            }
        }
        return new ArrayList<>(out);
    }

    /** An unreadable input fails the gate (exit 2, naming it) unless {@code --allow-unreadable}. */
    private void requireReadable(RunLoader.Loaded... sides) {
        if (allowUnreadable) {
            return;
        }
        List<String> lines = new ArrayList<>();
        for (RunLoader.Loaded side : sides) {
            lines.addAll(side.unreadable());
        }
        if (!lines.isEmpty()) {
            String first = lines.get(0).replaceFirst(" \\(skipped; the other inputs are analysed\\)$", "");
            throw new UserInputException(first + (lines.size() > 1 ? " (and " + (lines.size() - 1) + " more "
                    + "unreadable input" + (lines.size() > 2 ? "s" : "") + ")" : "")
                    + "; a gate does not pass on input it could not read (--allow-unreadable checks the rest)");
        }
    }
}
