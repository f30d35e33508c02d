package io.overlapanalyze.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pre-capture mark and the time rule for formats without correlation ids (metrics.md §2). */
class PreCaptureMarkTest {
    @Test
    void unlaunchedWorkEndingBeforeTheFirstLaunchIsMarked() {
        DeviceIntervals d = new DeviceIntervals(new StringPool());
        int before = d.add(0, 90, 0, DeviceKind.COMPUTE, "old", Time.UNKNOWN, -1);     // ends at 90 < 100
        int touching = d.add(50, 100, 0, DeviceKind.COMM, "old2", Time.UNKNOWN, -1);   // ends at 100: not before
        int launched = d.add(120, 130, 0, DeviceKind.COMPUTE, "k", 110, 1);
        int later = d.add(140, 150, 0, DeviceKind.COMPUTE, "unlinked", Time.UNKNOWN, -1);
        // The first launch is 100: a launch whose device work is missing counts too.
        assertEquals(1, d.markEndedBeforeFirstLaunch(new long[] {100}));
        assertTrue(d.preCapture(before));
        assertFalse(d.preCapture(touching));
        assertFalse(d.preCapture(launched));
        assertFalse(d.preCapture(later));
        assertEquals(1, d.preCaptureCount());
    }

    @Test
    void withoutAnyLaunchNothingIsMarked() {
        DeviceIntervals d = new DeviceIntervals(new StringPool());
        d.add(0, 90, 0, DeviceKind.COMPUTE, "k", Time.UNKNOWN, -1);
        assertEquals(0, d.markEndedBeforeFirstLaunch(new long[0]));
        assertEquals(0, d.preCaptureCount());
    }
}
