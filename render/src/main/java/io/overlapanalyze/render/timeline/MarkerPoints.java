package io.overlapanalyze.render.timeline;

import io.overlapanalyze.report.Markers;

import java.util.ArrayList;
import java.util.List;

/**
 * The four markers of metrics.md §4 as a list every picture draws the same way: key (the JSON
 * field's name without {@code Ns}), a short letter for the terminal, a label, and the exact time.
 */
public final class MarkerPoints {
    /**
     * One marker.
     *
     * @param key    "firstBucketReady", "reduceStart", "lastComputeEnd", "lastReduceEnd"
     * @param letter one-character tag for the terminal timeline
     * @param label  words for people
     * @param ns     absolute time on the rank's clock
     */
    public record Point(String key, char letter, String label, long ns) {
    }

    private MarkerPoints() {
    }

    /** The defined markers, in the order of metrics.md §4 (undefined ones are left out). */
    public static List<Point> of(Markers m) {
        List<Point> points = new ArrayList<>(4);
        add(points, "firstBucketReady", 'F', "first bucket ready", m.firstBucketReadyNs());
        add(points, "reduceStart", 'R', "reduce start", m.reduceStartNs());
        add(points, "lastComputeEnd", 'C', "last compute end", m.lastComputeEndNs());
        add(points, "lastReduceEnd", 'E', "last reduce end", m.lastReduceEndNs());
        return points;
    }

    private static void add(List<Point> points, String key, char letter, String label, Long ns) {
        if (ns != null) {
            points.add(new Point(key, letter, label, ns));
        }
    }
}
