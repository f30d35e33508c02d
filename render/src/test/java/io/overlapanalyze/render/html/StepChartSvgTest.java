package io.overlapanalyze.render.html;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-step chart: the value axis is scaled to the data ({@link AxisScale}), and a single step
 * is two labelled bars instead of a line of one point. Heights by hand: the plot is 120 px high.
 */
class StepChartSvgTest {
    private static final long MS = 1_000_000L;

    private static Element chart(List<String> labels, long[] tail, long[] exposed) {
        Document doc = Jsoup.parse(StepChartSvg.render(new StepChartSvg.Series(labels, tail, exposed), "test"));
        return doc.selectFirst("svg.stepchart");
    }

    private static List<String> axisLabels(Element svg) {
        return svg.select("text.axt[text-anchor=end]").eachText().stream()
                .filter(t -> t.matches("\\d+\\.\\d{3}")).toList();
    }

    @Test
    void anEightyEightMillisecondMaximumEndsTheAxisAtOneHundred() {
        Element svg = chart(List.of("s0", "s1", "s2"), new long[] {10 * MS, 88 * MS, 30 * MS},
                new long[] {5 * MS, 40 * MS, 2 * MS});
        assertEquals(String.valueOf(100 * MS), svg.attr("data-axis-top-ns"));
        assertEquals(List.of("0.000", "20.000", "40.000", "60.000", "80.000", "100.000"), axisLabels(svg));
        assertEquals(6, svg.select("path.grid").size(), "zero and five gridlines");
    }

    @Test
    void fourteenMillisecondsEndAtFifteen() {
        Element svg = chart(List.of("a", "b"), new long[] {14 * MS, 3 * MS}, new long[] {1 * MS, 0});
        assertEquals(List.of("0.000", "5.000", "10.000", "15.000"), axisLabels(svg));
    }

    @Test
    void oneStepIsTwoLabelledBarsNotALoneDot() {
        // Axis for 8 ms: 1 ms x 8 is too many, 2 ms x 4 = 8 ms; the 8 ms bar is the full 120 px,
        // the 3 ms bar 3/8 of it, 45 px.
        Element svg = chart(List.of("ProfilerStep#1"), new long[] {3 * MS}, new long[] {8 * MS});
        assertTrue(svg.select("circle.dot").isEmpty(), "no lone dot");
        assertTrue(svg.select("path.line").isEmpty(), "no one-point line");
        Element tail = svg.selectFirst("g.single[data-series=tail]");
        Element exposed = svg.selectFirst("g.single[data-series=exposed]");
        assertEquals(String.valueOf(3 * MS), tail.attr("data-ns"));
        assertEquals(String.valueOf(8 * MS), exposed.attr("data-ns"));
        assertEquals("45", tail.selectFirst("rect.bar").attr("height"));
        assertEquals("120", exposed.selectFirst("rect.x").attr("height"));
        assertEquals("tail 3.000 ms", tail.selectFirst("text").text());
        assertEquals("exposed comm 8.000 ms", exposed.selectFirst("text").text());
        assertTrue(svg.text().contains("ProfilerStep#1"), "the step is named");
    }

    @Test
    void oneStepWithoutATailSaysSoAndDrawsNoTailBar() {
        Element svg = chart(List.of("s"), new long[] {-1}, new long[] {2 * MS});
        Element tail = svg.selectFirst("g.single[data-series=tail]");
        assertEquals("tail n/a", tail.selectFirst("text").text());
        assertTrue(tail.select("rect").isEmpty());
        assertEquals("exposed comm 2.000 ms", svg.selectFirst("g.single[data-series=exposed] text").text());
    }

    @Test
    void allZeroDataHasAOneMicrosecondAxisAndNoBars() {
        Element svg = chart(List.of("a", "b", "c"), new long[] {0, 0, 0}, new long[] {0, 0, 0});
        assertEquals("1000", svg.attr("data-axis-top-ns"));
        assertEquals(List.of("0.000", "0.001"), axisLabels(svg));
        assertEquals("", svg.selectFirst("path.bar").attr("d"), "no tail bar");
    }

    @Test
    void allEqualDataReachesTheAxisEnd() {
        // 5 ms each: 1 ms x 5 = 5 ms, so every bar is the full 120 px.
        Element svg = chart(List.of("a", "b", "c"), new long[] {5 * MS, 5 * MS, 5 * MS},
                new long[] {5 * MS, 5 * MS, 5 * MS});
        assertEquals(String.valueOf(5 * MS), svg.attr("data-axis-top-ns"));
        for (Element dot : svg.select("circle.dot")) {
            assertEquals("10", dot.attr("cy"), "at the top of the plot (y = 10)");
        }
    }
}
