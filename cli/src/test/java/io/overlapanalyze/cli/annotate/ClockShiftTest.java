package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.crossrank.CrossRankAnalyzer;
import io.overlapanalyze.report.ClockAlignment;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which offsets {@code annotate} applies, and the line that says so. */
class ClockShiftTest {
    @Test
    void alignedOffsetsAreAppliedAndListed() {
        ClockShift s = ClockShift.of(new ClockAlignment(true, 9, 1_234L, "aligned on 9 collectives"),
                Map.of(0, 83L, 1, 37_206L, 2, -120_373L));
        assertTrue(s.applied());
        assertEquals(-120_373L, s.offsetOf(2));
        assertEquals(0L, s.offsetOf(7), "a rank the alignment did not cover keeps its clock");
        assertEquals("clock offsets applied so ranks line up (from 9 collectives every rank joined; residual "
                + "1.234 µs): rank 0 +0.083 µs, rank 1 +37.206 µs, rank 2 -120.373 µs", s.summary());
    }

    @Test
    void manyRanksAreCountedNotListed() {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (int r = 0; r < 1024; r++) {
            offsets.put(r, (long) r);
        }
        ClockShift s = ClockShift.of(new ClockAlignment(true, 3, 0L, "aligned"), offsets);
        assertTrue(s.summary().endsWith("rank 7 +0.007 µs … 1016 more ranks (all in the trace's metadata)"),
                s.summary());
        assertEquals(1024, s.offsetsNs().size());
    }

    @Test
    void roughClocksAreLeftAndSaidSo() {
        long rough = CrossRankAnalyzer.RESIDUAL_WARN_NS + 1;
        ClockShift s = ClockShift.of(new ClockAlignment(true, 40, rough, "aligned"), Map.of(0, 5_000L, 1, -5_000L));
        assertFalse(s.applied());
        assertEquals(0L, s.offsetOf(0));
        assertTrue(s.offsetsNs().isEmpty());
        assertEquals("clock offsets not applied: the clocks are too rough to align (after alignment, matched "
                + "collectives still end up to 100.001 µs apart); each rank is on its own clock", s.summary());
        // At the threshold itself the alignment is trusted, as the analysis trusts it.
        assertTrue(ClockShift.of(new ClockAlignment(true, 40, CrossRankAnalyzer.RESIDUAL_WARN_NS, "aligned"),
                Map.of(0, 5_000L, 1, -5_000L)).applied());
    }

    @Test
    void unalignedClocksAreLeftWithTheAnalysisReason() {
        String note = "clocks not aligned: 2 collectives joined by every rank with device times (need 3); "
                + "cross-rank timing uses each rank's own clock";
        ClockShift s = ClockShift.of(new ClockAlignment(false, 2, null, note), Map.of());
        assertFalse(s.applied());
        assertEquals("clock offsets not applied: each rank is on its own clock (" + note + ")", s.summary());
    }
}
