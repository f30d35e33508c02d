package io.overlapanalyze.formats.nsys;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 29 item 1: the default NVTX step rule is linear in a long range name (a hang guard). */
class NvtxStepPatternLinearTest {
    @Test
    void defaultStepRuleIsLinearInLongNames() {
        for (String name : new String[] {
                "step" + " _#:".repeat(200_000) + "x",
                "ProfilerStep" + " ".repeat(400_000) + "#" + " ".repeat(400_000) + "x",
                "iteration" + "1".repeat(400_000) + "x",
                "step".repeat(200_000)}) {
            assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> NvtxNames.DEFAULT_STEP_PATTERN.matcher(name).matches()));
        }
        assertTrue(NvtxNames.DEFAULT_STEP_PATTERN.matcher("ProfilerStep#12").matches());
        assertTrue(NvtxNames.DEFAULT_STEP_PATTERN.matcher("Step _# 3").matches());
        assertTrue(NvtxNames.DEFAULT_STEP_PATTERN.matcher("iteration:7").matches());
    }
}
