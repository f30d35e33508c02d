package io.overlapanalyze.report;

import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-built base step and the copy methods: a copy changes its own components and keeps all others. */
class StepReportTest {
    /** Every component set, each to a value no default (0, null, empty, false) equals. */
    private static StepReport full() {
        return new StepReport("ProfilerStep#7", true, 1_000L, 9_000L, 8_000, 11, 12, 13, 14, 15, 16, 17, 18, 0.25,
                19, new Markers(101L, 102L, 103L, 104L, 105L), 21L, 22L, 23L, 24L,
                new Attribution(TailKind.COMM_BOUND, List.of(new ChainLink(3, "allreduce", 64L, 1L, 2L, 0L, 0L, 0L,
                        BoundBy.QUEUE))),
                25, 26, true, List.of("a note"), List.of(new BucketReport(3, "allreduce", 64L, 1L, 2L, 1L, true)), 27L,
                List.of(new PrefetchReport(4, "forward", 32L, 5L, 6L, "k", 7L, 8L, 9L, 10L, "rule")),
                new PipelineReport(1, 2, 3, 4, 5, 6, 7),
                new LaunchReport(List.of(), 31, 32, 33, 34, 0.5, 0.5, 1), 28L, 29L, 30L, 31L, 32L, 33L,
                List.of(new AnnotationReport("fwd", 1, 2, 3, 4)), new StepBreakdown(41, 42, 43, 44, 45),
                new IdleBreakdown(46, 47, 48, List.of(new HostActivity("h", 46))), new CommSplit(49L, 50L, "estimated"));
    }

    /** Fails unless {@code copy} equals {@code base} in every component outside {@code changed}. */
    private static void assertOnlyChanged(StepReport base, StepReport copy, Set<String> changed) throws Exception {
        for (RecordComponent c : StepReport.class.getRecordComponents()) {
            if (!changed.contains(c.getName())) {
                assertEquals(c.getAccessor().invoke(base), c.getAccessor().invoke(copy), c.getName() + " carried over");
            }
        }
    }

    @Test
    void emptyIsAStepWithoutDeviceWork() {
        StepReport e = StepReport.empty("ProfilerStep#3");
        assertEquals("ProfilerStep#3", e.name());
        assertFalse(e.partial());
        assertNull(e.deviceStartNs());
        assertNull(e.deviceEndNs());
        assertEquals(0, e.stepTimeNs());
        assertEquals(0, e.commBusyNs());
        assertNull(e.overlapRatio(), "no communication: the ratio is undefined, not 0");
        assertNull(e.tailNs());
        assertNull(e.stepPeriodNs());
        assertNull(e.peakAllocatedBytes());
        assertEquals(Markers.undefined(), e.markers());
        assertEquals(TailKind.NONE, e.attribution().kind());
        assertFalse(e.hasFused());
        assertFalse(e.hasAnnotations());
        assertTrue(e.notes().isEmpty() && e.gradBuckets().isEmpty() && e.prefetches().isEmpty());
    }

    @Test
    void withDeviceWindowSetsTheWindowAndItsLength() throws Exception {
        StepReport base = full();
        StepReport w = base.withDeviceWindow(2_000, 5_500);
        assertEquals(2_000L, w.deviceStartNs());
        assertEquals(5_500L, w.deviceEndNs());
        assertEquals(3_500, w.stepTimeNs(), "5 500 − 2 000");
        assertOnlyChanged(base, w, Set.of("deviceStartNs", "deviceEndNs", "stepTimeNs"));
    }

    @Test
    void withPeakAllocatedBytesChangesOnlyThePeak() throws Exception {
        StepReport base = full();
        StepReport p = base.withPeakAllocatedBytes(4_096L);
        assertEquals(4_096L, p.peakAllocatedBytes());
        assertOnlyChanged(base, p, Set.of("peakAllocatedBytes"));
        assertNull(base.withPeakAllocatedBytes(null).peakAllocatedBytes(), "unknown stays unknown");
    }
}
