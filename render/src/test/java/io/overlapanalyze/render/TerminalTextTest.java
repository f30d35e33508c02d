package io.overlapanalyze.render;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class TerminalTextTest {
    @Test
    void controlCharactersAreShownNotObeyed() {
        assertEquals("\\x1b]0;owned\\x07 step\\x0a2", TerminalText.safe("\u001b]0;owned\u0007 step\n2"));
        assertEquals("a\\x7fb\\x9bc", TerminalText.safe("a\u007fb\u009bc"));
    }

    @Test
    void plainTextIsReturnedAsItIs() {
        String s = "## forward ## — 85.740 ms, ünïcödé";
        assertSame(s, TerminalText.safe(s));
    }
}
