package io.overlapanalyze.formats.ascend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 1: the Ascend readers' built-in name rules are linear in the name. Long adversarial
 * names under a generous hang guard; the Python-frame rule ({@code .*\(\d+\): .*}) took minutes on
 * the first one before it was said in one pass.
 */
class AscendNamePatternsLinearTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void pythonFrameRuleIsLinearInANameOfManyFrames() {
        // Many "(1): " on one line, then a second line: the expression tried the rest of the line for each.
        String name = "(1): ".repeat(100_000) + "\nx";
        assertFalse(assertTimeoutPreemptively(BOUND, () -> RankAssembler.isPythonFrame(name)),
                "a frame is one line: '.' does not match a line feed");
        String oneLine = "(1): ".repeat(100_000) + "x";
        assertTrue(assertTimeoutPreemptively(BOUND, () -> RankAssembler.isPythonFrame(oneLine)));
        String digits = "(" + "1".repeat(500_000) + ")x";
        assertFalse(assertTimeoutPreemptively(BOUND, () -> RankAssembler.isPythonFrame(digits)));
    }

    @Test
    void pythonFrameRuleKeepsItsMeaning() {
        assertTrue(RankAssembler.isPythonFrame("train.py(45): main"));
        assertTrue(RankAssembler.isPythonFrame("<string>(1): <module>"));
        assertFalse(RankAssembler.isPythonFrame("aten::mm"));
        assertFalse(RankAssembler.isPythonFrame("f(x): y"));
        assertFalse(RankAssembler.isPythonFrame("train.py(45):main"));
    }

    @Test
    void hcclNameRuleIsLinearInLongNames() {
        String digits = "1".repeat(300_000);
        assertNull(assertTimeoutPreemptively(BOUND,
                () -> HcclOpName.parse("hcom_a_" + digits + "_" + digits + "_" + digits + "_x")));
        assertNull(assertTimeoutPreemptively(BOUND,
                () -> HcclOpName.parse("hcom_" + "a".repeat(300_000) + "_" + "b".repeat(300_000) + "x")));
        assertNull(assertTimeoutPreemptively(BOUND,
                () -> HcclOpName.parse("hcom_a" + "_bKernel".repeat(100_000) + "__1_2")));
        assertEquals("483", HcclOpName.parse("hcom_broadcast__483_0").groupTag());
        assertEquals(490, HcclOpName.parse("hcom_reduceScatter_AicpuKernel_503_490_1").sequence());
    }
}
