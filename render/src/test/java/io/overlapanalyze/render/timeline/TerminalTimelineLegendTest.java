package io.overlapanalyze.render.timeline;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each marker of the legend is printed with its own time, even when it shares a column. */
class TerminalTimelineLegendTest {
    private static MarkerPoints.Point p(char letter, String label, long ns) {
        return new MarkerPoints.Point("k" + letter, letter, label, ns);
    }

    /** The case: C at +183.994 ms and E at +185.684 ms drawn in one column. */
    @Test
    void markersOfOneColumnWithDifferentTimesEachGetTheirOwn() {
        long start = 1_000_000_000L;
        List<List<MarkerPoints.Point>> groups = List.of(
                List.of(p('F', "first bucket ready", start + 2_000_000), p('R', "reduce start", start + 2_000_000)),
                List.of(p('C', "last compute end", start + 183_994_000), p('E', "last reduce end", start + 185_684_000)));
        assertEquals(List.of("F,R +2.000 first bucket ready, reduce start", "C +183.994 last compute end",
                "E +185.684 last reduce end (in C's column)"), TerminalTimeline.legend(groups, start));
    }

    /** Times that print alike (same µs after half-up rounding) keep one entry. */
    @Test
    void markersThatPrintAlikeShareTheEntry() {
        long start = 0;
        List<List<MarkerPoints.Point>> groups = List.of(
                List.of(p('C', "last compute end", 6_000_400), p('E', "last reduce end", 6_000_499)));
        assertEquals(List.of("C,E +6.000 last compute end, last reduce end"), TerminalTimeline.legend(groups, start));
    }
}
