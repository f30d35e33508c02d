package io.overlapanalyze.cli.annotate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Spreads slices over as few tracks as needed so that no two slices on one track overlap.
 * Perfetto drops a slice that crosses another on its track (starts inside it, ends after it), and
 * real traces have such overlaps on one stream (timestamp rounding) and across steps; two slices
 * that only touch ({@code a.end == b.start}) share a track.
 *
 * <p>Greedy in start order, first track whose last slice ended: optimal (as many tracks as the
 * most slices alive at one instant) and O(n log n + n·tracks).
 */
public final class TrackPacker {
    private TrackPacker() {
    }

    /**
     * Track number (0 = the first) for each slice {@code [starts[i], ends[i])}.
     */
    public static int[] pack(long[] starts, long[] ends) {
        int n = starts.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(starts[a], starts[b]);
            return c != 0 ? c : Long.compare(ends[a], ends[b]);
        });
        int[] track = new int[n];
        List<long[]> trackEnd = new ArrayList<>();
        for (int i : order) {
            int t = 0;
            while (t < trackEnd.size() && trackEnd.get(t)[0] > starts[i]) {
                t++;
            }
            if (t == trackEnd.size()) {
                trackEnd.add(new long[] {Long.MIN_VALUE});
            }
            trackEnd.get(t)[0] = Math.max(starts[i], ends[i]);
            track[i] = t;
        }
        return track;
    }
}
