package io.overlapanalyze.analysis.rank;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.analysis.AnnotationOverlap;
import io.overlapanalyze.analysis.ClockSkewCheck;
import io.overlapanalyze.analysis.CommSplitAnalysis;
import io.overlapanalyze.analysis.DataReady;
import io.overlapanalyze.analysis.ExposureAnalysis;
import io.overlapanalyze.analysis.FusedAnalysis;
import io.overlapanalyze.analysis.GradientSet;
import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.analysis.MarkerAnalysis;
import io.overlapanalyze.analysis.OverlapCrossCheck;
import io.overlapanalyze.analysis.PhaseClassifier;
import io.overlapanalyze.analysis.StepAssigner;
import io.overlapanalyze.analysis.StepBreakdowns;
import io.overlapanalyze.analysis.StepContext;
import io.overlapanalyze.analysis.StepPeriods;
import io.overlapanalyze.analysis.StreamWaitIndex;
import io.overlapanalyze.analysis.TailAttribution;
import io.overlapanalyze.analysis.TotalsCalculator;
import io.overlapanalyze.analysis.patterns.ContentionAnalysis;
import io.overlapanalyze.analysis.patterns.LaunchDiagnostics;
import io.overlapanalyze.analysis.patterns.MemoryAnalysis;
import io.overlapanalyze.analysis.patterns.ParallelismDetector;
import io.overlapanalyze.analysis.patterns.PipelineAnalysis;
import io.overlapanalyze.analysis.patterns.PrefetchAnalysis;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.report.Attribution;
import io.overlapanalyze.report.LaunchReport;
import io.overlapanalyze.report.NotAvailable;
import io.overlapanalyze.report.Parallelism;
import io.overlapanalyze.report.PipelineReport;
import io.overlapanalyze.report.PreCapture;
import io.overlapanalyze.report.BucketReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.Totals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The single-rank analysis: steps (§2), gradient set (§3), markers (§4), overlap and exposure
 * (§5) and tail attribution (§6) of metrics.md, for any input format. Never throws on a valid
 * model: what cannot be computed is reported as a note and null values.
 *
 * <p>Cost: O(n log n) in the number of device intervals (one sort by start for the step split,
 * per-step sorts for data-ready and the interval unions; no kernel × collective loops).
 */
public final class RankAnalyzer {
    public static final String NOTE_NO_DEVICE = "no device activity: nothing to analyse";
    /**
     * The note of a trace without step marks, naming what marks a step in the format read: each
     * reader finds steps its own way (Kineto: {@code ProfilerStep#N} annotations; Nsight: NVTX
     * ranges by the step pattern; Ascend: torch_npu's {@code ProfilerStep#N} ops or the database's
     * {@code STEP_TIME}), and the way to get them differs as much.
     */
    public static String noStepsNote(TraceFormat format) {
        return switch (format) {
            case NSYS -> "no NVTX step ranges: the whole trace is one step 'all' (for steps: an NVTX range per "
                    + "iteration, named ProfilerStep#N, step N or iteration N, or as --step-pattern says)";
            case ASCEND -> "no ProfilerStep#N ops or STEP_TIME rows: the whole trace is one step 'all' (for steps: "
                    + "torch_npu's profiler with a schedule marks ProfilerStep#N)";
            // A Flight Recorder dump has no device work, so it never gets here; it is PyTorch's all the same.
            case KINETO, FLIGHT_RECORDER -> "no ProfilerStep annotations: the whole trace is one step 'all' "
                    + "(for steps: a PyTorch profiler schedule marks ProfilerStep#N; with Nsight, an NVTX range per "
                    + "iteration named by --step-pattern)";
        };
    }
    public static final String NOTE_INFERENCE =
            "looks like inference: host ops show no backward pass and no optimizer; gradient markers and tail are not defined";
    public static final String NOTE_NO_HOST = "no host information: phases unknown; gradient reductions are all "
            + "reductions of the step and data-ready times are approximate (latest compute end before each collective)";

    /** Step note: some data-ready time came from a cuda_sync stream wait (metrics.md §4, explicit rule). */
    public static final String NOTE_EXPLICIT_DEPENDENCIES = "data-ready from explicit stream-wait dependencies";
    /** Step note: the trace has stream waits, but some collective had none usable. */
    public static final String NOTE_EXPLICIT_FALLBACK =
            "some collectives have no usable stream-wait dependency: their data-ready uses the fallback rule";

    /** From this many steps on, steps are analysed in parallel. */
    private static final int PARALLEL_STEPS = 64;

    private RankAnalyzer() {
    }

    /** Analyses one rank with the given options. */
    public static RankReport analyze(RankTrace trace, AnalysisOptions options) {
        List<String> notes = new ArrayList<>();
        List<StepReport> steps = new ArrayList<>();
        // Per step with fused kernels: its numbers by the profiler's own rule, for the cross-check.
        Map<String, long[]> profilerViews = new java.util.HashMap<>();
        MemoryAnalysis memory = MemoryAnalysis.of(trace);
        ContentionAnalysis contention = new ContentionAnalysis();
        Parallelism parallelism;
        PreCapture preCapture = null;
        List<String> warnings = new ArrayList<>(trace.warnings());
        if (!trace.hasDeviceActivity()) {
            // A Flight Recorder dump has no device timeline by nature: say so, not that the trace is empty.
            notes.add(trace.format() == TraceFormat.FLIGHT_RECORDER
                    && trace.commUnclassified() != null
                    ? "overlap metrics: not available (" + trace.commUnclassified() + ")" : NOTE_NO_DEVICE);
            parallelism = ParallelismDetector.detect(trace, new PhaseClassifier(trace), 0);
        } else {
            PhaseClassifier phases = new PhaseClassifier(trace);
            StepAssigner.Assignment assignment = StepAssigner.assign(trace);
            if (assignment.steps().size() == 1 && assignment.steps().get(0).synthetic()) {
                notes.add(noStepsNote(trace.format()));
            }
            if (!phases.hostOpsPresent()) {
                notes.add(NOTE_NO_HOST);
            } else if (!phases.traceShowsTraining()) {
                notes.add(NOTE_INFERENCE);
            }
            if (assignment.unassigned() > 0) {
                notes.add(assignment.unassigned() + " device intervals were launched outside every step and are not analysed");
            }
            StreamWaitIndex waits = StreamWaitIndex.of(trace);
            CommSplitAnalysis.Index splits = CommSplitAnalysis.index(trace); // once per rank: rule 3 looks at all steps
            AnnotationOverlap.Index annotations = AnnotationOverlap.index(trace);
            List<StepAssigner.Step> all = assignment.steps();
            StepPeriods.PreCaptureWork before = StepPeriods.preCapture(trace.device(), assignment.preCapture());
            preCapture = before.figures();
            // Periods and idle need the whole trace's device work, so they are fixed before any step
            // is analysed: a step's numbers cannot depend on the steps selected with --steps.
            ExposureAnalysis.Period[] periods = StepPeriods.of(trace.device(), all,
                    StepPeriods.deviceBusy(trace.device()));
            // Where each period went (metrics.md §11): one sweep over the rank, not one per step.
            StepBreakdowns.Result[] breakdowns = StepBreakdowns.of(trace, periods);
            // Steps are independent (the trace and the indexes are only read): a big trace's
            // thousands of steps are analysed on all cores, and kept in step order.
            IntStream indexes = IntStream.range(0, all.size());
            if (all.size() >= PARALLEL_STEPS) {
                indexes = indexes.parallel();
            }
            List<Map.Entry<StepContext, StepReport>> analysed = indexes.mapToObj(k -> {
                StepContext context = new StepContext(trace, all.get(k), phases);
                return Map.entry(context, analyzeStep(context, phases, waits, options, memory, periods[k],
                        before.busy(), annotations, breakdowns[k], splits));
            }).toList();
            ClockSkewCheck.Result skew = ClockSkewCheck.of(trace);
            // Without launch links nothing starts "before its launch": then the sign of skewed clocks is
            // device work lying outside every step's host range while every step is left empty.
            boolean allOutside = !skew.skewed() && assignment.unassigned() > 0
                    && analysed.stream().noneMatch(a -> a.getKey().hasDeviceWork())
                    && !(all.size() == 1 && all.get(0).synthetic());
            if (skew.skewed()) {
                warnings.add(CLOCKS_WARNING + skew.describe() + ", more than "
                        + ClockSkewCheck.TOLERANCE_NS / 1000 + " µs before it: the device times are not on the host's"
                        + " clock; every step is marked as having no usable data and left out of the totals");
            } else if (allOutside) {
                warnings.add(CLOCKS_WARNING + "no device work falls in any step's host range (" + assignment.unassigned()
                        + " device intervals lie outside every step): the device times are not on the host's clock, or"
                        + " the device work lost its launch links; every step is marked as having no usable data");
            }
            for (Map.Entry<StepContext, StepReport> a : analysed) {
                if (skew.skewed()) {
                    a = Map.entry(a.getKey(), withoutUsableData(a.getValue(), a.getKey(), skew, assignment.unassigned()));
                } else if (allOutside) {
                    a = Map.entry(a.getKey(), a.getValue().withNoUsableData("no device work falls in this step's host"
                            + " range while " + assignment.unassigned() + " device intervals of the rank lie outside every"
                            + " step (host and device clocks disagree, or launch links are missing): its 0.000 figures"
                            + " are not measurements"));
                }
                steps.add(a.getValue());
                FusedAnalysis.ProfilerView view = FusedAnalysis.profilerView(a.getKey());
                if (view != null) {
                    profilerViews.putIfAbsent(a.getValue().name(), new long[] {view.computingNs(),
                            view.communicationNs(), view.notOverlappedNs()});
                }
                if (TotalsCalculator.aggregated(a.getValue(), options)) {
                    contention.add(a.getKey()); // medians over the same steps as the totals
                }
            }
            addPartialNote(steps, options, notes);
            addPreCaptureNote(preCapture, steps, notes);
            addOverlappingWindowsNote(steps, notes);
            parallelism = ParallelismDetector.detect(trace, phases, assignment.steps().size());
        }
        Totals totals = TotalsCalculator.totals(steps, options);
        ContentionAnalysis.Result slowdown = contention.finish();
        return new RankReport(trace.rank(), trace.rankSource().name(), trace.source(), trace.format().name(),
                trace.worldSize() >= 0 ? trace.worldSize() : null, steps, totals, notes,
                withRepeatedStepNames(warnings, steps),
                OverlapCrossCheck.compare(trace.referenceOverlap(), steps, profilerViews), parallelism, slowdown.rows(),
                notAvailable(trace, steps, memory, slowdown), preCapture, List.of(), largestGroupSize(trace),
                trace.deviceModel());
    }

    /** Start of the rank warning that says the trace's host and device clocks disagree (issue 29 item 8). */
    public static final String CLOCKS_WARNING = "host and device clocks disagree: ";

    /**
     * {@code step} marked as having no usable data because the rank's clocks disagree: with its own
     * early intervals when it has launched work, else the rank's figures (a step whose work fell
     * outside its host range has none to show: its 0.000 is not a measurement).
     */
    private static StepReport withoutUsableData(StepReport step, StepContext context, ClockSkewCheck.Result rank,
                                                int unassigned) {
        ClockSkewCheck.Result own = ClockSkewCheck.of(context.device(), context.intervals());
        if (context.hasDeviceWork()) {
            return step.withNoUsableData("host and device clocks disagree: " + (own.checked() > 0 ? own : rank).describe()
                    + "; which step the work belongs to, the idle split and the launch figures mix the two clocks");
        }
        return step.withNoUsableData("host and device clocks disagree: " + rank.describe() + "; no device work falls"
                + " in this step's host range" + (unassigned > 0 ? " (" + unassigned + " device intervals of the rank"
                + " fall outside every step)" : "") + ", so its 0.000 figures are not measurements");
    }

    /** The most ranks any group of the trace's collectives has (member list or stated size), or {@code null}. */
    static Integer largestGroupSize(RankTrace trace) {
        int most = -1;
        for (io.overlapanalyze.model.Collective c : trace.collectives()) {
            int n = c.group() != null && !c.group().ranks().isEmpty() ? c.group().ranks().size() : c.groupSize();
            most = Math.max(most, n);
        }
        return most > 0 ? most : null;
    }

    /** Milliseconds with three decimals, from whole ns rounded half up to the µs (for notes). */
    static String msText(long ns) {
        return io.overlapanalyze.report.HumanTime.ms(ns);
    }

    /** Start of the step note that says work launched before the capture runs in its window. */
    static final String PRE_CAPTURE_STEP_NOTE = " ms of work launched before the capture runs inside this step's window";

    private static void addPreCaptureNote(PreCapture preCapture, List<StepReport> steps, List<String> notes) {
        if (preCapture.intervals() == 0) {
            return;
        }
        List<String> overlapped = steps.stream()
                .filter(s -> s.notes().stream().anyMatch(n -> n.contains(PRE_CAPTURE_STEP_NOTE)))
                .map(StepReport::name).toList();
        notes.add(preCapture.intervals() + " device intervals were launched before the capture began ("
                + msText(preCapture.busyNs()) + " ms busy, " + msText(preCapture.commBusyNs())
                + " ms of it communication): they belong to no step"
                + (overlapped.isEmpty() ? "" : "; they run inside the window of " + String.join(", ", overlapped)));
    }

    static final String OVERLAPPING_WINDOWS_NOTE_SUFFIX =
            " run past their period into the next step's (pipelined steps): step times add up to more than "
                    + "the device span; periods and idle do not";

    /** Says when windows overlap (metrics.md §2): adding step times then counts time twice. */
    private static void addOverlappingWindowsNote(List<StepReport> steps, List<String> notes) {
        long overlapping = steps.stream().filter(s -> s.windowOverlapNs() != null && s.windowOverlapNs() > 0).count();
        if (overlapping > 0) {
            long max = steps.stream().filter(s -> s.windowOverlapNs() != null)
                    .mapToLong(StepReport::windowOverlapNs).max().orElse(0);
            notes.add("step windows overlap: " + overlapping + " step(s), by up to " + msText(max) + " ms,"
                    + OVERLAPPING_WINDOWS_NOTE_SUFFIX);
        }
    }

    /**
     * {@code warnings} plus one naming the step names that occur more than once (a profiler
     * restarted, or a step annotation recorded twice): such steps are listed and counted
     * separately, and {@code --steps NAME} selects all of them, which a reader of the report
     * should know.
     */
    static List<String> withRepeatedStepNames(List<String> warnings, List<StepReport> steps) {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        for (StepReport s : steps) {
            counts.merge(s.name(), 1, Integer::sum);
        }
        List<String> repeated = new ArrayList<>();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() > 1) {
                repeated.add(e.getKey() + " (" + e.getValue() + " times)");
            }
        }
        if (repeated.isEmpty()) {
            return warnings;
        }
        List<String> out = new ArrayList<>(warnings);
        int shown = Math.min(repeated.size(), 5);
        out.add("step names repeat: " + String.join(", ", repeated.subList(0, shown))
                + (repeated.size() > shown ? " and " + (repeated.size() - shown) + " more" : "")
                + "; each is a step of its own in the lists and totals, and --steps by name selects all of them");
        return out;
    }

    /**
     * Per section, why it has nothing to show (metrics.md: "say so rather than print
     * zeros"). Decided over all steps: a section is available when any step has it.
     */
    static NotAvailable notAvailable(RankTrace trace, List<StepReport> steps, MemoryAnalysis memory,
                                     ContentionAnalysis.Result slowdown) {
        if (!trace.hasDeviceActivity()) {
            String none = "no device activity";
            return new NotAvailable(none, none, none, memory.unavailable() != null ? memory.unavailable() : none, none,
                    null);
        }
        String prefetch = steps.stream().anyMatch(s -> s.exposedPrefetchNs() != null) ? null
                : "no all-gathers on the device (no FSDP / ZeRO parameter prefetch)";
        String pipeline = steps.stream().anyMatch(s -> s.pipeline() != null) ? null
                : "no send/recv collectives on the device (no pipeline parallelism)";
        String launch = null;
        if (steps.stream().noneMatch(s -> s.launch() != null)) {
            launch = "no gradient collectives in any step";
        } else if (!trace.hostOpsPresent()) {
            launch = "no host ops: enqueue times unknown, the start delay cannot be split into late launch and busy "
                    + "comm stream";
        }
        String memoryWhy = memory.unavailable();
        if (memoryWhy == null && steps.stream().allMatch(s -> s.peakAllocatedBytes() == null)) {
            memoryWhy = "no allocator event of this rank's device falls inside any step";
        }
        return new NotAvailable(prefetch, pipeline, slowdown.unavailable(), memoryWhy, launch,
                trace.commUnclassified());
    }

    /**
     * Keeps only the steps whose name the selection accepts ({@code --steps}) and recomputes the
     * totals and the partial-step note over them.
     */
    public static RankReport selectSteps(RankReport report, java.util.function.Predicate<String> selection,
                                         AnalysisOptions options) {
        List<StepReport> kept = report.steps().stream().filter(s -> selection.test(s.name())).toList();
        List<String> notes = new ArrayList<>(report.notes().stream()
                .filter(n -> !n.endsWith(PARTIAL_NOTE_SUFFIX) && !n.endsWith(OVERLAPPING_WINDOWS_NOTE_SUFFIX)).toList());
        addPartialNote(kept, options, notes);
        addOverlappingWindowsNote(kept, notes);
        if (kept.isEmpty() && !report.steps().isEmpty()) {
            notes.add("no step matches the --steps selection");
        }
        // Contention, parallelism and the pre-capture figures stay those of the whole trace: the
        // per-kernel medians need the kernels, which a report does not hold, and pre-capture work
        // belongs to no step.
        return new RankReport(report.rank(), report.rankSource(), report.source(), report.format(),
                report.worldSize(), kept, TotalsCalculator.totals(kept, options), notes, report.warnings(),
                report.crossCheck().stream().filter(c -> selection.test(c.step())).toList(), report.parallelism(),
                report.contention(), report.notAvailable(), report.preCapture(), report.findings(),
                report.largestGroupSize(), report.deviceModel());
    }

    private static final String PARTIAL_NOTE_SUFFIX = " partial step(s) excluded from totals";

    private static void addPartialNote(List<StepReport> steps, AnalysisOptions options, List<String> notes) {
        long partialExcluded = steps.stream()
                .filter(s -> s.partial() && s.deviceStartNs() != null && !options.includePartial()).count();
        if (partialExcluded > 0) {
            notes.add(partialExcluded + PARTIAL_NOTE_SUFFIX);
        }
    }

    /** Analyses with {@link AnalysisOptions#defaults()}. */
    public static RankReport analyze(RankTrace trace) {
        return analyze(trace, AnalysisOptions.defaults());
    }

    static StepReport analyzeStep(StepContext step, PhaseClassifier phases, StreamWaitIndex waits,
                                  AnalysisOptions options, MemoryAnalysis memory, ExposureAnalysis.Period period,
                                  IntervalSet preCaptureBusy, AnnotationOverlap.Index annotations,
                                  StepBreakdowns.Result breakdown, CommSplitAnalysis.Waits splits) {
        List<String> notes = new ArrayList<>();
        GradientSet.Selection g = GradientSet.select(step, phases);
        ExposureAnalysis.Exposure exposure = ExposureAnalysis.analyze(step, g.members(), period);
        if (exposure.hasWork()) {
            long inWindow = preCaptureBusy.lengthWithin(exposure.deviceStartNs(), exposure.deviceEndNs());
            if (inWindow > 0) {
                notes.add(msText(inWindow) + PRE_CAPTURE_STEP_NOTE + "; it is not counted in this step");
            }
        }
        MarkerAnalysis.Result markers;
        TailAttribution.Result attribution;
        LaunchReport launch = null;
        if (g.members().isEmpty()) {
            markers = MarkerAnalysis.Result.undefined();
            attribution = new TailAttribution.Result(Attribution.none(), false);
            if (g.mode() == GradientSet.Mode.INFERENCE) {
                notes.add("looks like inference: no gradient reductions");
            } else if (step.hasDeviceWork()) {
                notes.add("no gradient reductions in this step");
            }
        } else {
            DataReady dataReady = new DataReady(step, waits);
            markers = MarkerAnalysis.analyze(step, g.members(), dataReady);
            attribution = TailAttribution.attribute(step, markers.gL(), markers.tailNs(), dataReady, options, splits);
            launch = LaunchDiagnostics.analyze(step, g.members(), dataReady);
            if (dataReady.explicitCount() > 0) {
                notes.add(NOTE_EXPLICIT_DEPENDENCIES);
            }
            if (dataReady.fallbackWithWaitsCount() > 0) {
                notes.add(NOTE_EXPLICIT_FALLBACK);
            }
            if (markers.tailNs() == null) {
                notes.add("no backward compute before the last reduction ended: tail not defined");
            }
        }
        if (g.unlinkedLeftOut() > 0) {
            notes.add(g.unlinkedLeftOut() + " reduction(s) without a host enqueue or launch are not gradient "
                    + "reductions: the trace has host information, and the fallback applies only without it");
        }
        if (!step.hasDeviceWork()) {
            notes.add("no device work in this step");
        }
        boolean approximate = markers.approximate() || attribution.approximate();
        if (approximate) {
            notes.add("data-ready times approximate: no host launch data");
        }
        PrefetchAnalysis.Result prefetch = PrefetchAnalysis.analyze(step);
        if (prefetch.unidentified() > 0) {
            notes.add(prefetch.unidentified() + " all-gather(s) without an identifiable consumer (no compute kernel "
                    + "starts after them in this step)");
        }
        if (prefetch.prefetches().stream().anyMatch(p -> PrefetchAnalysis.RULE_DEVICE_ORDER.equals(p.rule()))) {
            notes.add("all-gather consumers found by device order (no stream-wait events): approximate");
        }
        CommSplitAnalysis.StepSplit commSplit = CommSplitAnalysis.splitStep(step, splits);
        if (commSplit.note() != null) {
            notes.add(commSplit.note());
        }
        PipelineReport pipeline = PipelineAnalysis.analyze(step);
        Long peak = memory.unavailable() == null
                ? memory.peak(step.step().hostStartNs(), step.step().hostEndNs()) : null;
        return new StepReport(step.step().name(), step.step().partial(),
                exposure.hasWork() ? exposure.deviceStartNs() : null,
                exposure.hasWork() ? exposure.deviceEndNs() : null,
                exposure.stepTimeNs(), exposure.commBusyNs(), exposure.computeBusyNs(), exposure.overlappedNs(),
                exposure.exposedCommNs(), exposure.exposedGradCommNs(), exposure.idleNs(),
                exposure.serialEstimateNs(), exposure.overlapSavingNs(), exposure.overlapRatio(),
                g.members().size(), markers.markers(), markers.tailNs(), markers.lastBucketTailNs(),
                markers.startDelayNs(), markers.launchLateNs(), attribution.attribution(),
                step.intervals().length, step.comm().length, approximate, notes,
                gradBuckets(g.members(), markers.gL()), prefetch.exposedPrefetchNs(), prefetch.prefetches(), pipeline,
                launch, peak, exposure.hasWork() ? exposure.stepPeriodNs() : null,
                exposure.hasWork() ? exposure.windowOverlapNs() : null, exposure.fusedBusyNs(),
                FusedAnalysis.fusedCommNs(step), null, AnnotationOverlap.analyze(step, annotations),
                breakdown.breakdown(), breakdown.idle(), commSplit.split());
    }

    /** G by device start (as GradientSet lists it), each with its size and reduction time. */
    static List<BucketReport> gradBuckets(List<StepContext.CollectiveSpan> members, StepContext.CollectiveSpan gL) {
        List<BucketReport> buckets = new ArrayList<>(members.size());
        for (StepContext.CollectiveSpan c : members) {
            long bytes = c.collective().bytes();
            buckets.add(new BucketReport(c.id(), c.collective().type().name(), bytes >= 0 ? bytes : null,
                    c.startNs(), c.endNs(), c.durationNs(), gL != null && c.id() == gL.id()));
        }
        return buckets;
    }
}
