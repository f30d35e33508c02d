package io.overlapanalyze.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 1: {@code --steps} asks every step name for its trailing number; the rule is linear
 * in the name ({@code (\d+)\s*$} gave back every digit of a long run from every position of it:
 * minutes on the name below).
 */
class StepSelectionLinearTest {
    @Test
    void trailingNumberRuleIsLinearInALongDigitRun() {
        StepSelection steps = StepSelection.parse("2-4");
        String name = "ProfilerStep#" + "1".repeat(400_000) + "x";
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> steps.test(name)));
        String spaced = "ProfilerStep#3" + " ".repeat(400_000) + "x";
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> steps.test(spaced)));
        assertTrue(steps.test("ProfilerStep#3"));
        assertTrue(steps.test("step 4  "));
        assertFalse(steps.test("ProfilerStep#5"));
    }
}
