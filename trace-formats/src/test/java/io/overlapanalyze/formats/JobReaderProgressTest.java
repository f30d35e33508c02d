package io.overlapanalyze.formats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The progress line of a long read (a terminal only): files and ranks read, and the time left at the pace so far. */
class JobReaderProgressTest {
    private static final long S = 1_000_000_000L;

    @Test
    void theTimeLeftIsThePaceSoFarTimesTheInputsLeft() {
        assertEquals(", about 30 s left", JobReader.estimate(10 * S, 10, 40), "1 s each, 30 left");
        assertEquals(", about 3 min left", JobReader.estimate(100 * S, 100, 300),
                "1 s each, 200 left: 3 min 20 s, rounded");
        assertEquals(", about 16 min left", JobReader.estimate(64 * S, 64, 1024), "960 s left");
        assertEquals(", about 1 s left", JobReader.estimate(S / 10, 9, 10), "under a second shows as 1 s");
    }

    @Test
    void noEstimateBeforeTwoInputsNorAtTheEnd() {
        assertEquals("", JobReader.estimate(5 * S, 1, 100));
        assertEquals("", JobReader.estimate(5 * S, 100, 100));
    }

    @Test
    void theLineCountsFilesAndTheRanksTheyHeld() {
        assertEquals("overlap-analyze: read 10 of 40 files, 20 ranks, about 30 s left",
                JobReader.progressLine(10, 40, 20, 10 * S), "two ranks a file (an Nsight export of two ranks)");
        assertEquals("overlap-analyze: read 1 of 40 files, 1 rank", JobReader.progressLine(1, 40, 1, S));
    }
}
