package io.overlapanalyze.analysis;

import static io.overlapanalyze.analysis.TraceBuilder.AUTOGRAD;
import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.BoundBy;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.Markers;
import io.overlapanalyze.report.Phase;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.List;

import org.junit.jupiter.api.Test;

class AnalysisCasesTest {
    private static final AnalysisOptions DEFAULTS = AnalysisOptions.defaults();

    /** One backward block [0,2] ms; g1 enqueued by the host at 3 ms, long after its data was ready. */
    @Test
    void lateLaunchIsLaunchBound() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        b.span(HostSpanKind.STEP, "ProfilerStep#0", ORIGIN - 5 * MS, ORIGIN + 10 * MS, MAIN);
        b.span(HostSpanKind.OPTIMIZER, "Optimizer.step#Adam.step", ORIGIN + 5 * MS, ORIGIN + 6 * MS, MAIN);
        b.compute(ORIGIN, ORIGIN + 2 * MS, compute, ORIGIN - 3 * MS, AUTOGRAD);
        long enqueue = ORIGIN + 3 * MS;
        b.collective(CollectiveType.ALL_REDUCE, 1 << 20, enqueue, AUTOGRAD, enqueue + 1 * US, ORIGIN + 4 * MS, comm,
                enqueue + US / 2);
        StepReport s = RankAnalyzer.analyze(b.build(), DEFAULTS).steps().get(0);
        assertEquals(ORIGIN + 2 * MS, s.markers().firstBucketReadyNs());
        assertEquals(1 * MS, s.launchLateNs());
        assertEquals(1 * MS + 1 * US, s.startDelayNs());
        assertEquals(2 * MS, s.tailNs());
        assertEquals(TailKind.LAUNCH_BOUND, s.attribution().kind());
        assertEquals(List.of(BoundBy.LAUNCH), s.attribution().chain().stream().map(ChainLink::boundBy).toList());
    }

    /** A late first bucket with a second one queued behind it: the chain ends on LAUNCH. */
    @Test
    void queueBehindALateLaunchIsStillLaunchBound() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        b.span(HostSpanKind.STEP, "ProfilerStep#0", ORIGIN - 5 * MS, ORIGIN + 20 * MS, MAIN);
        b.span(HostSpanKind.OPTIMIZER, "Optimizer.step#Adam.step", ORIGIN + 15 * MS, ORIGIN + 16 * MS, MAIN);
        b.compute(ORIGIN, ORIGIN + 2 * MS, compute, ORIGIN - 3 * MS, AUTOGRAD);
        b.compute(ORIGIN + 2 * MS, ORIGIN + 4 * MS, compute, ORIGIN - 2 * MS, AUTOGRAD);
        long late = ORIGIN + 3 * MS;
        b.collective(CollectiveType.ALL_REDUCE, 1 << 20, late, AUTOGRAD, late + 1 * US, ORIGIN + 6 * MS, comm,
                late + US / 2);
        b.collective(CollectiveType.ALL_REDUCE, 1 << 20, ORIGIN - 1 * MS, AUTOGRAD, ORIGIN + 6 * MS,
                ORIGIN + 9 * MS, comm, ORIGIN - 1 * MS + 5 * US);
        StepReport s = RankAnalyzer.analyze(b.build(), DEFAULTS).steps().get(0);
        assertEquals(List.of(BoundBy.QUEUE, BoundBy.LAUNCH),
                s.attribution().chain().stream().map(ChainLink::boundBy).toList());
        assertEquals(TailKind.LAUNCH_BOUND, s.attribution().kind());
        assertEquals(5 * MS, s.tailNs());
    }

    @Test
    void inferenceTraceHasNoGradientSetButStillExposure() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#0", ORIGIN - MS, ORIGIN + 10 * MS, MAIN);
        b.compute(ORIGIN, ORIGIN + 2 * MS, compute, ORIGIN - MS / 2, MAIN);
        b.collective(CollectiveType.ALL_REDUCE, 1024, ORIGIN - MS / 4, MAIN, ORIGIN + MS, ORIGIN + 3 * MS, comm,
                ORIGIN - MS / 4 + US);
        RankReport r = RankAnalyzer.analyze(b.build(), DEFAULTS);
        StepReport s = r.steps().get(0);
        assertTrue(r.notes().contains(RankAnalyzer.NOTE_INFERENCE), r.notes().toString());
        assertTrue(s.notes().stream().anyMatch(n -> n.contains("inference")));
        assertEquals(0, s.gradCollectives());
        assertEquals(Markers.undefined(), s.markers());
        assertNull(s.tailNs());
        assertNull(s.lastBucketTailNs());
        assertNull(s.startDelayNs());
        assertNull(s.launchLateNs());
        assertEquals(TailKind.NONE, s.attribution().kind());
        assertTrue(s.attribution().chain().isEmpty());
        assertEquals(2 * MS, s.commBusyNs());
        assertEquals(1 * MS, s.overlappedNs());
        assertEquals(1 * MS, s.exposedCommNs());
        assertEquals(0L, s.exposedGradCommNs());
        assertEquals(0.5, s.overlapRatio());
        assertEquals(3 * MS, s.stepTimeNs());
        assertNull(r.totals().medians().tailNs());
    }

    @Test
    void noHostInformationUsesFallbacksAndFlagsApproximate() {
        RankTrace trace = TraceBuilder.seed(4, 0, false);
        PhaseClassifier phases = new PhaseClassifier(trace);
        for (int i = 0; i < trace.device().size(); i++) {
            assertEquals(Phase.UNKNOWN, phases.phaseOfInterval(trace.device(), i));
        }
        RankReport r = RankAnalyzer.analyze(trace, DEFAULTS);
        assertTrue(r.notes().contains(RankAnalyzer.noStepsNote(TraceFormat.KINETO)));
        assertTrue(r.notes().contains(RankAnalyzer.NOTE_NO_HOST));
        StepReport s = r.steps().get(0);
        assertEquals("all", s.name());
        assertTrue(s.approximate());
        assertEquals(3, s.gradCollectives());
        assertEquals(ORIGIN + 2 * MS, s.markers().firstBucketReadyNs());
        assertEquals(ORIGIN + 6 * MS, s.markers().lastComputeEndNs());
        assertEquals(ORIGIN + 14 * MS, s.markers().lastReduceEndNs());
        assertEquals(ORIGIN + 6 * MS, s.markers().lastBucketReadyNs());
        assertEquals(8 * MS, s.tailNs());
        assertEquals(8 * MS, s.lastBucketTailNs());
        assertNull(s.launchLateNs(), "no enqueue time, no launch-late split");
        assertEquals(0L, s.startDelayNs());
        assertEquals(1.0 / 3.0, s.overlapRatio());
        // Without launch data g2's data-ready is the end of the block before it starts (6 ms) and ties
        // with the queue; DATA wins ties. The tail is still communication-bound.
        assertEquals(TailKind.COMM_BOUND, s.attribution().kind());
        assertEquals(List.of(BoundBy.QUEUE, BoundBy.DATA),
                s.attribution().chain().stream().map(ChainLink::boundBy).toList());
    }

    @Test
    void noHostInformationFallbackExcludesOptimizerKernelFromLastComputeEnd() {
        RankReport r = RankAnalyzer.analyze(TraceBuilder.seed(1, MS / 2, false), DEFAULTS);
        StepReport s = r.steps().get(0);
        assertEquals(ORIGIN + 6 * MS, s.markers().lastComputeEndNs());
        assertEquals(1 * MS, s.tailNs());
        assertEquals(TailKind.LAST_BUCKET, s.attribution().kind());
        assertEquals(7 * MS + MS / 2, s.stepTimeNs());
    }

    @Test
    void phasesFromHostSpansAndThreads() {
        TraceBuilder b = new TraceBuilder();
        b.thread(MAIN, false).thread(AUTOGRAD, true).thread(3, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#0", 0, 100, MAIN);
        b.span(HostSpanKind.BACKWARD, "autograd::engine::evaluate_function: MmBackward0", 10, 20, MAIN);
        b.span(HostSpanKind.OPTIMIZER, "Optimizer.step#SGD.step", 50, 60, MAIN);
        PhaseClassifier p = new PhaseClassifier(b.build());
        assertEquals(Phase.FORWARD, p.phaseOfLaunch(5, MAIN));
        assertEquals(Phase.BACKWARD, p.phaseOfLaunch(15, MAIN));
        assertEquals(Phase.FORWARD, p.phaseOfLaunch(15, 3), "a backward span on another thread does not count");
        assertEquals(Phase.BACKWARD, p.phaseOfLaunch(30, AUTOGRAD));
        assertEquals(Phase.OPTIMIZER, p.phaseOfLaunch(55, 3));
        assertEquals(Phase.OPTIMIZER, p.phaseOfLaunch(55, AUTOGRAD));
        assertEquals(Phase.UNKNOWN, p.phaseOfLaunch(Time.UNKNOWN, MAIN));
    }

    private static TraceBuilder twoSeedLikeSteps() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        for (int k = 0; k < 2; k++) {
            long o = ORIGIN + k * 100 * MS;
            b.span(HostSpanKind.STEP, "ProfilerStep#" + k, o - 10 * MS, o + 80 * MS, MAIN);
            b.span(HostSpanKind.OPTIMIZER, "Optimizer.step#SGD.step", o - 2 * MS, o - MS, MAIN);
            b.compute(o, o + 2 * MS, compute, o - 5 * MS, AUTOGRAD);
            b.collective(CollectiveType.ALL_REDUCE, 1 << 20, o - 4 * MS, AUTOGRAD, o + 2 * MS,
                    o + (3 + k) * MS, comm, o - 4 * MS + 10 * US);
        }
        return b;
    }

    @Test
    void unmatchedLaunchMakesAStepPartialAndTotalsSkipIt() {
        TraceBuilder b = twoSeedLikeSteps().unmatchedLaunch(ORIGIN + 100 * MS - 3 * MS);
        RankTrace trace = b.build();
        RankReport r = RankAnalyzer.analyze(trace, DEFAULTS);
        assertFalse(r.steps().get(0).partial());
        assertTrue(r.steps().get(1).partial());
        assertEquals(2 * MS, r.steps().get(1).tailNs(), "partial steps still get full numbers");
        assertEquals(1, r.totals().steps());
        assertEquals(1 * MS, r.totals().tailNs());
        assertEquals(3 * MS, r.totals().stepTimeNs());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("partial")));

        RankReport all = RankAnalyzer.analyze(trace, new AnalysisOptions(true, 2_000L, 0.005));
        assertEquals(2, all.totals().steps());
        assertEquals(3 * MS, all.totals().tailNs());
        assertEquals(7 * MS, all.totals().stepTimeNs());
        assertEquals(3 * MS / 2, all.totals().medians().tailNs());
    }

    @Test
    void truncatedTraceMakesTheLastStepPartial() {
        RankReport r = RankAnalyzer.analyze(twoSeedLikeSteps().truncated(true).warning("file ended early").build(),
                DEFAULTS);
        assertFalse(r.steps().get(0).partial());
        assertTrue(r.steps().get(1).partial());
        assertEquals(1, r.totals().steps());
        assertEquals(List.of("file ended early"), r.warnings());
    }

    @Test
    void workIsAssignedByLaunchNotByDeviceTime() {
        TraceBuilder b = twoSeedLikeSteps();
        // Launched in step 0's span but running on the device during step 1's time range.
        b.compute(ORIGIN + 150 * MS, ORIGIN + 151 * MS, 0, ORIGIN + 79 * MS, MAIN);
        // Launched between the step spans: in no step.
        b.compute(ORIGIN + 95 * MS, ORIGIN + 96 * MS, 0, ORIGIN + 85 * MS, MAIN);
        // No launch link: assigned by device start within [step host start, next step host start).
        b.compute(ORIGIN + 120 * MS, ORIGIN + 121 * MS, 0, Time.UNKNOWN, -1);
        RankReport r = RankAnalyzer.analyze(b.build(), DEFAULTS);
        assertEquals(3, r.steps().get(0).deviceIntervals());
        assertEquals(ORIGIN + 151 * MS, r.steps().get(0).deviceEndNs());
        assertEquals(3, r.steps().get(1).deviceIntervals());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("1 device intervals")), r.notes().toString());
    }

    @Test
    void noStepAnnotationsGiveOneStepAll() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        b.compute(ORIGIN, ORIGIN + 2 * MS, compute, ORIGIN - MS, AUTOGRAD);
        b.collective(CollectiveType.REDUCE_SCATTER, 1 << 20, ORIGIN - MS / 2, AUTOGRAD, ORIGIN + 2 * MS,
                ORIGIN + 3 * MS, comm, ORIGIN - MS / 2 + US);
        RankReport r = RankAnalyzer.analyze(b.build(), DEFAULTS);
        assertEquals(1, r.steps().size());
        assertEquals("all", r.steps().get(0).name());
        assertTrue(r.notes().contains("no ProfilerStep annotations: the whole trace is one step 'all' (for steps: a "
                + "PyTorch profiler schedule marks ProfilerStep#N; with Nsight, an NVTX range per iteration named by "
                + "--step-pattern)"), r.notes().toString());
        assertEquals(1, r.steps().get(0).gradCollectives());
        assertEquals(1 * MS, r.steps().get(0).tailNs());
    }

    /** The note names what marks a step in the format read, not Kineto's ProfilerStep for every input. */
    @Test
    void theNoStepsNoteNamesWhatMarksAStepInTheFormatRead() {
        for (TraceFormat f : List.of(TraceFormat.NSYS, TraceFormat.ASCEND)) {
            TraceBuilder b = new TraceBuilder().format(f);
            int compute = b.lane("compute");
            b.thread(MAIN, false);
            b.compute(ORIGIN, ORIGIN + 2 * MS, compute, ORIGIN - MS, MAIN);
            List<String> notes = RankAnalyzer.analyze(b.build(), DEFAULTS).notes();
            String expected = f == TraceFormat.NSYS
                    ? "no NVTX step ranges: the whole trace is one step 'all' (for steps: an NVTX range per iteration, "
                    + "named ProfilerStep#N, step N or iteration N, or as --step-pattern says)"
                    : "no ProfilerStep#N ops or STEP_TIME rows: the whole trace is one step 'all' (for steps: "
                    + "torch_npu's profiler with a schedule marks ProfilerStep#N)";
            assertTrue(notes.contains(expected), f + ": " + notes);
            assertTrue(notes.stream().noneMatch(n -> n.startsWith("no ProfilerStep annotations")), f + ": " + notes);
        }
    }

    @Test
    void noDeviceActivityIsANoteNotAnError() {
        TraceBuilder b = new TraceBuilder();
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#0", ORIGIN, ORIGIN + MS, MAIN);
        RankReport r = RankAnalyzer.analyze(b.build(), DEFAULTS);
        assertEquals(List.of(RankAnalyzer.NOTE_NO_DEVICE), r.notes());
        assertTrue(r.steps().isEmpty());
        assertEquals(0, r.totals().steps());
        assertNull(r.totals().overlapRatio());
        assertNull(r.totals().medians().stepTimeNs());
    }

    @Test
    void stepWithoutDeviceWorkHasNullWindowAndZeros() {
        TraceBuilder b = twoSeedLikeSteps();
        b.span(HostSpanKind.STEP, "ProfilerStep#2", ORIGIN + 300 * MS, ORIGIN + 310 * MS, MAIN);
        RankReport r = RankAnalyzer.analyze(b.build(), DEFAULTS);
        StepReport empty = r.steps().get(2);
        assertNull(empty.deviceStartNs());
        assertNull(empty.deviceEndNs());
        assertEquals(0L, empty.stepTimeNs());
        assertNull(empty.overlapRatio());
        assertEquals(2, r.totals().steps(), "a step without device work is not aggregated");
    }

    @Test
    void syncAndMemcpyAreNeitherComputeNorComm() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("compute");
        int comm = b.lane("comm");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#0", ORIGIN - MS, ORIGIN + 10 * MS, MAIN);
        b.collective(CollectiveType.ALL_GATHER, 1024, ORIGIN - MS / 2, MAIN, ORIGIN, ORIGIN + 2 * MS, comm,
                ORIGIN - MS / 2 + US);
        b.kernel(ORIGIN, ORIGIN + 2 * MS, compute, DeviceKind.SYNC, "Stream Wait Event", ORIGIN - MS / 4, MAIN);
        b.kernel(ORIGIN + 3 * MS, ORIGIN + 4 * MS, compute, DeviceKind.MEMCPY, "Memcpy HtoD", ORIGIN - MS / 4, MAIN);
        b.kernel(ORIGIN + 5 * MS, ORIGIN + 6 * MS, compute, DeviceKind.SYNC, "cudaDeviceSynchronize", ORIGIN - MS / 5,
                MAIN);
        StepReport s = RankAnalyzer.analyze(b.build(), DEFAULTS).steps().get(0);
        assertEquals(0L, s.overlappedNs());
        assertEquals(0.0, s.overlapRatio());
        assertEquals(2 * MS, s.exposedCommNs());
        // metrics.md §1: sync rows carry host time; the one ending at +6 ms closes no window.
        assertEquals(4 * MS, s.stepTimeNs(), "window = comm [0,2] to memcpy [3,4]; SYNC sets no bound");
        assertEquals(1 * MS, s.idleNs(), "sync time is idle ([2,3]); memcpy is busy");
        assertEquals(4 * MS, s.stepPeriodNs(), "one step: its period is its window");
        assertEquals(0L, s.windowOverlapNs());
        assertEquals(1, s.commKernels());
        assertEquals(4, s.deviceIntervals());
    }
}
