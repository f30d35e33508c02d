package io.overlapanalyze.analysis;

import io.overlapanalyze.analysis.rank.RankAnalyzer;
import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.report.AnnotationReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.overlapanalyze.analysis.TraceBuilder.MAIN;
import static io.overlapanalyze.analysis.TraceBuilder.MS;
import static io.overlapanalyze.analysis.TraceBuilder.ORIGIN;
import static io.overlapanalyze.analysis.TraceBuilder.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Micro-batch overlap per annotation name ({@link AnnotationOverlap}) on traces built by hand;
 * every expected number is worked out in the comments (ms after {@code ORIGIN}).
 */
class AnnotationOverlapTest {
    private static long t(double ms) {
        return ORIGIN + Math.round(ms * 1000) * US;
    }

    private static AnnotationReport find(StepReport s, String name) {
        return s.annotations().stream().filter(a -> a.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + s.annotations()));
    }

    private static void assertRow(AnnotationReport a, long device, long comm, long exposed, long hidden) {
        assertEquals(List.of(device, comm, exposed, hidden),
                List.of(a.deviceNs(), a.commNs(), a.exposedCommNs(), a.hiddenUnderNs()), a.name());
    }

    /**
     * GPU-side ranges. Lane 7: attn(B) [0,10] over compute [0,4], a FUSED kernel [4,6], compute
     * [6,10]; unannotated compute [20,24]. Lane 30: dispatch(F) [1,9] over COMM [1,3] and [5,9] and a
     * SYNC row [2,2.1]; combine(F) [18,26] over COMM [18,26]. Lane 40: tail(F) [30,31] over part
     * of a COMM kernel [29,32].
     * <pre>
     * K ∪ F = [0,10] ∪ [20,24]
     * dispatch(F): comm [1,3]+[5,9] = 6, exposed 0, hidden under attn(B)'s [0,10] (fused included) 6
     * combine(F):  comm 8, exposed [18,20]+[24,26] = 4, hidden 0 ([20,24] belongs to no annotation)
     * attn(B):     device 10 (compute and fused), comm 0
     * tail(F):     clipped to [30,31]: device 1, comm 1, exposed 1, hidden 0
     * </pre>
     */
    @Test
    void gpuRangesOwnTheirLanesWorkClippedToThem() {
        TraceBuilder b = new TraceBuilder();
        int l7 = b.lane("stream 7");
        int l30 = b.lane("stream 30");
        int l40 = b.lane("stream 40");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - MS, t(50), MAIN);
        long launch = ORIGIN - 500 * US;
        b.compute(t(0), t(4), l7, launch, MAIN);
        b.kernel(t(4), t(6), l7, DeviceKind.FUSED, "MatmulAllReduce", launch + 1, MAIN);
        b.compute(t(6), t(10), l7, launch + 2, MAIN);
        b.compute(t(20), t(24), l7, launch + 3, MAIN);
        b.kernel(t(1), t(3), l30, DeviceKind.COMM, "dispatch", launch + 4, MAIN);
        b.kernel(t(2), t(2.1), l30, DeviceKind.SYNC, "Stream Wait Event", launch + 5, MAIN);
        b.kernel(t(5), t(9), l30, DeviceKind.COMM, "dispatch", launch + 6, MAIN);
        b.kernel(t(18), t(26), l30, DeviceKind.COMM, "combine", launch + 7, MAIN);
        b.kernel(t(29), t(32), l40, DeviceKind.COMM, "tail", launch + 8, MAIN);
        b.annotation(Annotation.onDevice("attn(B)", t(0), t(10), l7));
        b.annotation(Annotation.onDevice("dispatch(F)", t(1), t(9), l30));
        b.annotation(Annotation.onDevice("combine(F)", t(18), t(26), l30));
        b.annotation(Annotation.onDevice("tail(F)", t(30), t(31), l40));
        StepReport s = RankAnalyzer.analyze(b.build()).steps().get(0);
        assertRow(find(s, "dispatch(F)"), 6 * MS, 6 * MS, 0, 6 * MS);
        assertRow(find(s, "combine(F)"), 8 * MS, 8 * MS, 4 * MS, 0);
        assertRow(find(s, "attn(B)"), 10 * MS, 0, 0, 0);
        assertRow(find(s, "tail(F)"), 1 * MS, 1 * MS, 1 * MS, 0);
        // By exposed communication, largest first; ties by name.
        assertEquals(List.of("combine(F)", "tail(F)", "attn(B)", "dispatch(F)"),
                s.annotations().stream().map(AnnotationReport::name).toList());
    }

    /**
     * Host ranges, nested: outer launched compute [0,10] and COMM [2,6]; inner (inside outer on
     * the host) launched only the COMM kernel. For inner, outer's compute is another annotation's
     * work that is not inner's: hidden 4. For outer, the communication ran under its own compute:
     * exposed 0 and hidden 0 (inner has no compute of its own).
     */
    @Test
    void nestedHostRangesDoNotHideCommunicationUnderTheirOwnCompute() {
        TraceBuilder b = new TraceBuilder();
        int l7 = b.lane("stream 7");
        int l30 = b.lane("stream 30");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", ORIGIN - MS, t(50), MAIN);
        int c = b.compute(t(0), t(10), l7, ORIGIN - 900 * US, MAIN);
        int m = b.kernel(t(2), t(6), l30, DeviceKind.COMM, "all_to_all", ORIGIN - 800 * US, MAIN);
        b.annotation(Annotation.onHost("outer", ORIGIN - 950 * US, ORIGIN - 700 * US, MAIN, new int[] {c, m}));
        b.annotation(Annotation.onHost("inner", ORIGIN - 850 * US, ORIGIN - 750 * US, MAIN, new int[] {m}));
        StepReport s = RankAnalyzer.analyze(b.build()).steps().get(0);
        assertRow(find(s, "outer"), 10 * MS, 4 * MS, 0, 0);
        assertRow(find(s, "inner"), 4 * MS, 4 * MS, 0, 4 * MS);
    }

    /**
     * Two steps (host [0,20) and [20,40)): the host range mb launched COMM [1,3] in step 1 and
     * COMM [21,24] in step 2; the GPU range g on lane 7 covers [0,5], where only step 1 has work.
     * Each step reports its own work only: step 1 mb comm 2 (exposed 2: nothing computes), g device
     * 5; step 2 mb comm 3 and no g at all (a name without work in the step is not listed).
     */
    @Test
    void eachStepCountsItsOwnWork() {
        TraceBuilder b = new TraceBuilder();
        int l7 = b.lane("stream 7");
        int l30 = b.lane("stream 30");
        b.thread(MAIN, false);
        b.span(HostSpanKind.STEP, "ProfilerStep#1", t(0), t(20), MAIN);
        b.span(HostSpanKind.STEP, "ProfilerStep#2", t(20), t(40), MAIN);
        b.kernel(t(0), t(5), l7, DeviceKind.MEMCPY, "Memcpy HtoD", t(0) + US, MAIN);
        int m1 = b.kernel(t(1), t(3), l30, DeviceKind.COMM, "a2a", t(0) + 2 * US, MAIN);
        int m2 = b.kernel(t(21), t(24), l30, DeviceKind.COMM, "a2a", t(20) + 2 * US, MAIN);
        b.annotation(Annotation.onHost("mb", t(0), t(30), MAIN, new int[] {m1, m2}));
        b.annotation(Annotation.onDevice("g", t(0), t(5), l7));
        RankReport r = RankAnalyzer.analyze(b.build());
        StepReport s1 = r.steps().get(0);
        StepReport s2 = r.steps().get(1);
        assertRow(find(s1, "mb"), 2 * MS, 2 * MS, 2 * MS, 0);
        assertRow(find(s1, "g"), 5 * MS, 0, 0, 0);
        assertRow(find(s2, "mb"), 3 * MS, 3 * MS, 3 * MS, 0);
        assertEquals(1, s2.annotations().size(), s2.annotations().toString());
    }

    @Test
    void aTraceWithoutAnnotationsHasAnEmptyList() {
        StepReport s = RankAnalyzer.analyze(TraceBuilder.seed(1, 0, true)).steps().get(0);
        assertTrue(s.annotations().isEmpty());
    }
}
