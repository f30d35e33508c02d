package io.overlapanalyze.analysis;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.StepBreakdown;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The precedence and the idle split of metrics.md §11 on hand-placed intervals (times in ns). */
class StepBreakdownsTest {
    private static final long MAIN = 1;
    private static final long OTHER_THREAD = 2;

    private static ExposureAnalysis.Period period(long start, long end) {
        return new ExposureAnalysis.Period(start, end, IntervalSet.empty());
    }

    @Test
    void eachInstantCountsOnceInTheContractsOrder() {
        DeviceIntervals d = new DeviceIntervals(new StringPool());
        // [0,100) compute; [50,150) fused; [120,200) comm; [180,260) copy; [260,300) nothing but
        // SYNC and OTHER rows (never work); [300,310) compute launched at 250 on MAIN.
        d.add(0, 100, 0, DeviceKind.COMPUTE, "k", Time.UNKNOWN, -1);
        d.add(50, 150, 1, DeviceKind.FUSED, "f", Time.UNKNOWN, -1);
        d.add(120, 200, 2, DeviceKind.COMM, "c", Time.UNKNOWN, -1);
        d.add(180, 260, 3, DeviceKind.MEMCPY, "m", Time.UNKNOWN, -1);
        d.add(260, 290, 3, DeviceKind.SYNC, "s", Time.UNKNOWN, -1);
        d.add(265, 295, 3, DeviceKind.OTHER, "o", Time.UNKNOWN, -1);
        d.add(300, 310, 0, DeviceKind.COMPUTE, "k2", 250, MAIN);
        StepBreakdowns.Result[] r = StepBreakdowns.of(d, new ExposureAnalysis.Period[] {period(0, 310), null},
                HostRanges.none());
        // compute 100 + 10; fused [100,150) 50; comm [150,200) 50; copy [200,260) 60; idle [260,300) 40
        assertEquals(new StepBreakdown(110, 50, 50, 60, 40), r[0].breakdown());
        // The gap [260,300) ends with work launched at 250: all of it launched, not host-bound.
        assertEquals(new IdleBreakdown(0, 40, 0, List.of()), r[0].idle());
        assertNull(r[1].breakdown());
        assertNull(r[1].idle());
    }

    @Test
    void aGapIsSplitAtTheLaunchOfTheFirstLaunchedWorkThatEndsIt() {
        DeviceIntervals d = new DeviceIntervals(new StringPool());
        d.add(0, 100, 0, DeviceKind.COMPUTE, "a", 0, MAIN);
        // Two kernels start at 500, ending the gap [100, 500): launched at 400 (OTHER_THREAD) and 300 (MAIN).
        d.add(500, 600, 0, DeviceKind.COMPUTE, "b", 400, OTHER_THREAD);
        d.add(500, 550, 1, DeviceKind.COMM, "c", 300, MAIN);
        // A gap [600, 700) ended by work without a launch: unknown.
        d.add(700, 800, 0, DeviceKind.COMPUTE, "d", Time.UNKNOWN, -1);
        HostRanges ranges = HostRanges.builder()
                .add(MAIN, 90, 200, "outer")
                .add(MAIN, 100, 150, "inner") // inside "outer": never named
                .add(MAIN, 180, 260, "overlapping") // starts inside "outer": owns [200, 260)
                .add(OTHER_THREAD, 100, 400, "other thread") // not the issuing thread
                .build();
        StepBreakdowns.Result[] r = StepBreakdowns.of(d, new ExposureAnalysis.Period[] {period(0, 800)}, ranges);
        assertEquals(new StepBreakdown(300, 0, 0, 0, 500), r[0].breakdown());
        IdleBreakdown idle = r[0].idle();
        assertEquals(200, idle.hostNs()); // [100, 300)
        assertEquals(200, idle.launchedNs()); // [300, 500)
        assertEquals(100, idle.unknownNs()); // [600, 700)
        assertEquals(List.of(new HostActivity("outer", 100), new HostActivity("overlapping", 60),
                new HostActivity(HostActivity.BETWEEN_RANGES, 40)), idle.hostActivity());
    }

    @Test
    void periodsCutGapsAndOnlyTheFiveLargestActivitiesAreKept() {
        DeviceIntervals d = new DeviceIntervals(new StringPool());
        d.add(0, 10, 0, DeviceKind.COMPUTE, "a", 0, MAIN);
        d.add(1010, 1020, 0, DeviceKind.COMPUTE, "b", 1005, MAIN);
        HostRanges.Builder b = HostRanges.builder();
        for (int i = 0; i < 7; i++) { // seven ranges of 10 + 20 i ns, 10 ns apart, from 10
            long start = 10 + 10L * i + 10L * i * i;
            b.add(MAIN, start, start + 10 + 20L * i, "r" + i);
        }
        // Periods [0, 500) and [500, 1020): the gap [10, 1010) is split between them.
        StepBreakdowns.Result[] r = StepBreakdowns.of(d,
                new ExposureAnalysis.Period[] {period(0, 500), period(500, 1020)}, b.build());
        assertEquals(new StepBreakdown(10, 0, 0, 0, 490), r[0].breakdown());
        assertEquals(new StepBreakdown(10, 0, 0, 0, 510), r[1].breakdown());
        assertEquals(490, r[0].idle().hostNs());
        assertEquals(new IdleBreakdown(505, 5, 0, List.of(new HostActivity(HostActivity.BETWEEN_RANGES, 445),
                new HostActivity("r6", 60))), r[1].idle()); // [500, 1005) host-bound, [1005, 1010) launched
        // r0 [10,20) r1 [30,60) r2 [70,120) r3 [130,200) r4 [210,300) r5 [310,420) r6 [430,560);
        // in [10, 500): r6 has 70, between ranges 6 × 10; ties by name; r0..r2 are not kept.
        assertEquals(List.of(new HostActivity("r5", 110), new HostActivity("r4", 90), new HostActivity("r3", 70),
                new HostActivity("r6", 70), new HostActivity(HostActivity.BETWEEN_RANGES, 60)),
                r[0].idle().hostActivity());
    }
}
