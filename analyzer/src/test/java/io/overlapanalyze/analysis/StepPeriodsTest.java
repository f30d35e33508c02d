package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;

import java.util.function.Predicate;

import static io.overlapanalyze.analysis.TraceBuilder.AUTOGRAD;
import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Step periods, idle inside the period, overlapping windows, work launched before the capture and
 * sync rows at host time (metrics.md §1, §2, §5), on traces built by hand; every expected value
 * is worked out in the comments from the intervals written here.
 */
class StepPeriodsTest {
    private static final AnalysisOptions DEFAULTS = AnalysisOptions.defaults();

    /**
     * Step 1 (host [0,10) ms): compute [0,4], a copy [4,12] that runs into step 2.
     * Step 2 (host [10,20) ms): compute [10,11] and [14,16].
     * Before the capture: a kernel [12,13] with no launch.
     * A SYNC row of step 2 (launched at 10.5 ms) drawn at [9.5, 9.6] ms: its host call's time, as
     * CUPTI stamps sync rows, with the device running behind the host.
     */
    private static io.overlapanalyze.model.RankTrace pipelined() {
        TraceBuilder b = new TraceBuilder();
        int compute = b.lane("stream 7");
        int copy = b.lane("stream 30");
        b.thread(MAIN, false).thread(AUTOGRAD, true);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN, ORIGIN + 10 * MS, MAIN);
        b.span(HostSpanKind.STEP, "ProfilerStep#2", ORIGIN + 10 * MS, ORIGIN + 20 * MS, MAIN);
        b.span(HostSpanKind.BACKWARD, "autograd::engine::evaluate_function: MmBackward0", ORIGIN + MS,
                ORIGIN + 2 * MS, AUTOGRAD);
        b.compute(ORIGIN, ORIGIN + 4 * MS, compute, ORIGIN + US, MAIN);
        b.kernel(ORIGIN + 4 * MS, ORIGIN + 12 * MS, copy, DeviceKind.MEMCPY, "Memcpy HtoD", ORIGIN + 9 * MS, MAIN);
        b.compute(ORIGIN + 10 * MS, ORIGIN + 11 * MS, compute, ORIGIN + 10 * MS + US, MAIN);
        b.compute(ORIGIN + 14 * MS, ORIGIN + 16 * MS, compute, ORIGIN + 10 * MS + 2 * US, MAIN);
        int before = b.kernel(ORIGIN + 12 * MS, ORIGIN + 13 * MS, compute, DeviceKind.COMPUTE, "old", Time.UNKNOWN, -1);
        b.preCapture(before);
        b.kernel(ORIGIN + 9 * MS + 500 * US, ORIGIN + 9 * MS + 600 * US, compute, DeviceKind.SYNC, "Stream Sync",
                ORIGIN + 10 * MS + 500 * US, MAIN);
        return b.build();
    }

    @Test
    void periodsIdleAndOverlapOfPipelinedSteps() {
        RankReport r = RankAnalyzer.analyze(pipelined(), DEFAULTS);
        StepReport s1 = r.steps().get(0);
        StepReport s2 = r.steps().get(1);
        // Step 1: window [0,12] (the copy is its work); period [0,10) (step 2's first start is 10).
        assertEquals(12 * MS, s1.stepTimeNs());
        assertEquals(10 * MS, s1.stepPeriodNs());
        assertEquals(2 * MS, s1.windowOverlapNs(), "window ends 12, period 10");
        assertEquals(0L, s1.idleNs(), "[0,4] compute and [4,12] copy cover the whole period");
        // Step 2: window [10,16] (the SYNC row at 9.5 ms opens nothing); the last step's period is
        // its window. Busy inside it: [10,11] own, [10,12] step 1's copy, [12,13] pre-capture,
        // [14,16] own = [10,13] + [14,16] = 5 ms, so idle = 1 ms ([13,14]).
        assertEquals(ORIGIN + 10 * MS, s2.deviceStartNs());
        assertEquals(6 * MS, s2.stepTimeNs());
        assertEquals(6 * MS, s2.stepPeriodNs());
        assertEquals(0L, s2.windowOverlapNs());
        assertEquals(1 * MS, s2.idleNs());
        // overlapSaving keeps its window meaning: serial (3 ms compute) − own |C ∪ K ∪ M| (3 ms) = 0.
        assertEquals(0L, s2.overlapSavingNs());
        assertEquals(3 * MS, s2.computeBusyNs(), "the pre-capture kernel is not step 2's");
        // Whole run: periods 16 ms = device span [0,16]; idle 1 ms; step times add to 18 ms.
        assertEquals(16 * MS, r.totals().stepPeriodNs());
        assertEquals(1 * MS, r.totals().idleNs());
        assertEquals(18 * MS, r.totals().stepTimeNs());
        assertNotNull(r.preCapture());
        assertEquals(1, r.preCapture().intervals());
        assertEquals(1 * MS, r.preCapture().busyNs());
        assertEquals(0L, r.preCapture().commBusyNs());
        assertTrue(s2.notes().stream().anyMatch(n -> n.startsWith("1.000 ms of work launched before the capture")),
                s2.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("step windows overlap: 1 step(s), by up to 2.000 ms")),
                r.notes().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("inside the window of ProfilerStep#2")),
                r.notes().toString());
    }

    @Test
    void selectingStepsNeverChangesThem() {
        RankReport full = RankAnalyzer.analyze(pipelined(), DEFAULTS);
        for (String name : new String[] {"ProfilerStep#1", "ProfilerStep#2"}) {
            Predicate<String> only = name::equals;
            RankReport one = RankAnalyzer.selectSteps(full, only, DEFAULTS);
            assertEquals(1, one.steps().size());
            assertEquals(full.steps().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(),
                    one.steps().get(0));
            assertEquals(full.preCapture(), one.preCapture());
        }
    }

    /** A step whose only row is a SYNC one has no window at all. */
    @Test
    void syncRowsAloneMakeNoWindow() {
        TraceBuilder b = new TraceBuilder();
        int lane = b.lane("stream 7");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN, ORIGIN + 10 * MS, MAIN);
        b.span(HostSpanKind.STEP, "ProfilerStep#2", ORIGIN + 10 * MS, ORIGIN + 20 * MS, MAIN);
        b.kernel(ORIGIN + MS, ORIGIN + 2 * MS, lane, DeviceKind.SYNC, "Context Sync", ORIGIN + MS, MAIN);
        b.compute(ORIGIN + 11 * MS, ORIGIN + 12 * MS, lane, ORIGIN + 10 * MS + US, MAIN);
        RankReport r = RankAnalyzer.analyze(b.build(), DEFAULTS);
        assertEquals(null, r.steps().get(0).deviceStartNs());
        assertEquals(null, r.steps().get(0).stepPeriodNs());
        assertEquals(1 * MS, r.steps().get(1).stepTimeNs());
    }

    /**
     * A reduction whose kernel has no launch link, in a trace with host information: not in G
     * (metrics.md §3); without host information the fallback takes it.
     */
    @Test
    void unlinkedReductionsAreGradientsOnlyWithoutHostInformation() {
        for (boolean hostOps : new boolean[] {true, false}) {
            TraceBuilder b = new TraceBuilder();
            int compute = b.lane("stream 7");
            int comm = b.lane("stream 20");
            b.thread(MAIN, false).thread(AUTOGRAD, true).hostOps(hostOps);
            b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN, ORIGIN + 10 * MS, MAIN);
            b.span(HostSpanKind.BACKWARD, "autograd::engine::evaluate_function: MmBackward0", ORIGIN,
                    ORIGIN + 5 * MS, AUTOGRAD);
            b.compute(ORIGIN, ORIGIN + 2 * MS, compute, ORIGIN + US, AUTOGRAD);
            b.collective(CollectiveType.ALL_REDUCE, 1024, ORIGIN + 100 * US, AUTOGRAD, ORIGIN + 2 * MS,
                    ORIGIN + 3 * MS, comm, ORIGIN + 110 * US);
            b.collective(CollectiveType.ALL_REDUCE, 1024, Time.UNKNOWN, -1, ORIGIN + 3 * MS, ORIGIN + 4 * MS, comm,
                    Time.UNKNOWN);
            StepReport s = RankAnalyzer.analyze(b.build(), DEFAULTS).steps().get(0);
            assertEquals(hostOps ? 1 : 2, s.gradCollectives(), "host ops " + hostOps);
            if (hostOps) {
                assertTrue(s.notes().stream().anyMatch(n -> n.startsWith("1 reduction(s) without a host enqueue")),
                        s.notes().toString());
            }
        }
    }
}
