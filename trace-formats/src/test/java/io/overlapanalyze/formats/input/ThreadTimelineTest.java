package io.overlapanalyze.formats.input;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The containment and start queries against a plain reading of their definitions over every span: on
 * spans that nest, follow each other, overlap in part, share starts or are empty, and on threads
 * where one long span encloses thousands of others (past the last of them, the innermost span is
 * thousands of positions back).
 */
class ThreadTimelineTest {
    private record Span(long tid, long start, long end, int payload) {
    }

    @Test
    void queriesMatchTheirDefinitions() {
        SplittableRandom r = new SplittableRandom(5);
        for (int round = 0; round < 40; round++) {
            List<Span> spans = new ArrayList<>();
            int n = 1 + r.nextInt(200);
            for (int i = 0; i < n; i++) {
                long start = r.nextInt(1000);
                long end = start + (r.nextInt(4) == 0 ? 0 : r.nextInt(r.nextBoolean() ? 20 : 400));
                spans.add(new Span(r.nextInt(3), start, end, i));
            }
            if (round % 4 == 0) {
                spans.add(new Span(0, 0, 2000, n)); // encloses everything on thread 0
            }
            ThreadTimeline timeline = new ThreadTimeline();
            spans.forEach(s -> timeline.add(s.tid(), s.start(), s.end(), s.payload()));
            timeline.build();
            for (int q = 0; q < 500; q++) {
                long tid = r.nextInt(4); // thread 3 has no spans
                long t = r.nextInt(2100) - 50;
                assertEquals(outermost(spans, tid, t), timeline.outermostContaining(tid, t),
                        "outermost at " + t + " on " + tid + ", round " + round);
                assertEquals(innermost(spans, tid, t), timeline.innermostContaining(tid, t),
                        "innermost at " + t + " on " + tid + ", round " + round);
                long hi = t + r.nextInt(60) - 10;
                assertEquals(firstStarting(spans, tid, t, hi), timeline.firstStartingWithin(tid, t, hi),
                        "first starting in [" + t + ", " + hi + "] on " + tid + ", round " + round);
            }
        }
    }

    @Test
    void oneSpanEnclosingThousandsIsFoundFromAnyOfThem() {
        ThreadTimeline timeline = new ThreadTimeline();
        timeline.add(7, 0, 1_000_000, -5);
        for (int i = 0; i < 50_000; i++) {
            timeline.add(7, 10 + i * 20L, 15 + i * 20L, i);
        }
        timeline.build();
        assertEquals(-5, timeline.outermostContaining(7, 999_990));
        assertEquals(-5, timeline.outermostContaining(7, 12));
        assertEquals(-1, timeline.outermostContaining(7, 1_000_001));
        assertEquals(49_999, timeline.innermostContaining(7, 999_993));
        assertEquals(-5, timeline.innermostContaining(7, 999_997));
    }

    /** The earliest start among the spans containing t; at equal starts the longest, then the first added. */
    private static int outermost(List<Span> spans, long tid, long t) {
        Span best = null;
        for (Span s : spans) {
            if (s.tid() == tid && s.start() <= t && t <= s.end()
                    && (best == null || s.start() < best.start() || s.start() == best.start() && s.end() > best.end())) {
                best = s;
            }
        }
        return best == null ? -1 : best.payload();
    }

    /** The earliest start in [lo, hi]; at equal starts the longest, then the first added. */
    private static int firstStarting(List<Span> spans, long tid, long lo, long hi) {
        Span best = null;
        for (Span s : spans) {
            if (s.tid() == tid && lo <= s.start() && s.start() <= hi
                    && (best == null || s.start() < best.start() || s.start() == best.start() && s.end() > best.end())) {
                best = s;
            }
        }
        return best == null ? -1 : best.payload();
    }

    /** The latest start among the spans containing t; at equal starts the shortest, then the last added. */
    private static int innermost(List<Span> spans, long tid, long t) {
        Span best = null;
        for (Span s : spans) {
            if (s.tid() == tid && s.start() <= t && t <= s.end()
                    && (best == null || s.start() > best.start() || s.start() == best.start() && s.end() <= best.end())) {
                best = s;
            }
        }
        return best == null ? -1 : best.payload();
    }
}
