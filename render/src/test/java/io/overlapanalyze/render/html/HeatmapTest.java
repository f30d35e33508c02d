package io.overlapanalyze.render.html;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A heatmap carries its colour scale with values, and values in cells big enough for them. By
 * hand: with a largest value of 6,999,999 ns a cell's shade is 2 + ⌊7 v / 7,000,000⌋ (at most 8),
 * so shade 3 starts at 1 ms, shade 4 at 2 ms, … shade 8 at 6 ms.
 */
class HeatmapTest {
    private static final long MS = 1_000_000L;

    private static Element heatmap(List<String> rows, List<String> cols, long[][] values) {
        return Jsoup.parse(Heatmap.render(rows, cols, values, "tail")).selectFirst("svg.heatmap");
    }

    @Test
    void theColourScaleSaysWhereEachShadeStarts() {
        Element svg = heatmap(List.of("rank 0", "rank 1"), List.of("s0", "s1", "s2"),
                new long[][] {{0, MS - 1, MS}, {-1, 6 * MS, 7 * MS - 1}});
        assertEquals(List.of("not defined", "0", "> 0 ms", "≥ 1.000 ms", "≥ 2.000 ms", "≥ 3.000 ms", "≥ 4.000 ms",
                "≥ 5.000 ms", "≥ 6.000 ms"), svg.select("g.scale text").eachText());
        assertEquals(List.of("h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"),
                svg.select("g.scale rect").eachAttr("class"));
        assertEquals(List.of("", "0", "1", "1000000", "2000000", "3000000", "4000000", "5000000", "6000000"),
                svg.select("g.scale text").eachAttr("data-ns"));
        // 999,999 ns is shade 2, 1 ms shade 3, 6 ms and 6.999999 ms shade 8 (one path per shade).
        for (String shade : List.of("h0", "h1", "h2", "h3", "h8")) {
            assertEquals(1, svg.select("path." + shade).size(), shade);
        }
        assertTrue(svg.select("path.h4, path.h5, path.h6, path.h7").isEmpty());
        // Three columns of a 1,000-unit plot are wide enough for their values; the undefined cell has none.
        assertEquals(List.of("0.000", "1.000", "1.000", "6.000", "7.000"), svg.select("text.cv").eachText());
    }

    @Test
    void allZeroShowsOnlyTheShadesInUse() {
        Element svg = heatmap(List.of("rank 0"), List.of("s0", "s1"), new long[][] {{0, -1}});
        assertEquals(List.of("not defined", "0"), svg.select("g.scale text").eachText());
    }

    @Test
    void narrowCellsCarryNoValues() {
        long[] row = new long[100];
        Arrays.fill(row, 3 * MS);
        Element svg = heatmap(List.of("rank 0"), java.util.stream.IntStream.range(0, 100).mapToObj(i -> "s" + i)
                .toList(), new long[][] {row});
        assertTrue(svg.select("text.cv").isEmpty(), "ten units per cell: no room for a number");
        assertEquals(9, svg.select("g.scale text").size(), "the whole scale up to 3 ms");
    }
}
