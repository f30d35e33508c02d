package io.overlapanalyze.cli.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.overlapanalyze.pipeline.PipelineInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 1: the threshold options' rules are linear in the value ({@code \s*%?\s*} split
 * a long run of blanks every possible way: minutes on a 128 KB argument, the most Linux passes).
 */
class ThresholdValuesLinearTest {
    @Test
    void percentAndDurationRulesAreLinearInLongValues() {
        String blanks = "1" + " ".repeat(130_000) + "x";
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThrows(PipelineInputException.class, () -> ThresholdValues.percent("--threshold", blanks));
            assertThrows(PipelineInputException.class, () -> ThresholdValues.duration("--min-delta", blanks));
        });
        assertEquals(0.1, ThresholdValues.percent("--threshold", " 10 % "), 1e-12);
        assertEquals(100_000L, ThresholdValues.duration("--min-delta", "0.1 ms"));
    }
}
