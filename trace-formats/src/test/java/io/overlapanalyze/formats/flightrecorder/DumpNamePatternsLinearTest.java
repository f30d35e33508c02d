package io.overlapanalyze.formats.flightrecorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 1: the send/recv pair rule of Flight Recorder entries ({@code "send 0->3"}) is
 * linear in the name: {@code (\d+)\s*(->|<-)\s*(\d+)} gave back every digit of a long run from
 * every position of it (quadratic, minutes on the name below).
 */
class DumpNamePatternsLinearTest {
    @Test
    void pairRuleIsLinearInALongDigitRun() {
        String name = "send " + "1".repeat(400_000) + " x";
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> DumpDecoder.PAIR.matcher(name).find()));
        String spaced = "send 1" + " ".repeat(400_000) + "x";
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> DumpDecoder.PAIR.matcher(spaced).find()));
    }

    @Test
    void pairRuleKeepsItsMeaning() {
        Matcher m = DumpDecoder.PAIR.matcher("nccl:send 12->3");
        assertTrue(m.find());
        assertEquals("12", m.group(1));
        assertEquals("->", m.group(2));
        assertEquals("3", m.group(3));
        Matcher r = DumpDecoder.PAIR.matcher("recv 3 <- 0");
        assertTrue(r.find());
        assertEquals("3", r.group(1));
        assertEquals("0", r.group(3));
    }
}
