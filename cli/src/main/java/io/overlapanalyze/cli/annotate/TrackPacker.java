package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Spreads slices over as few tracks as needed so that Perfetto keeps every one of them. Perfetto
 * drops a slice that crosses another on its track (starts inside it, ends after it), and real
 * traces have such overlaps on one stream (timestamp rounding) and across steps.
 *
 * <ul>
 *   <li>{@link #pack}: no two slices on a track overlap (device lanes, the analysis tracks: their
 *       slices are peers, never parent and child); two that only touch ({@code a.end == b.start})
 *       share a track;</li>
 *   <li>{@link #nest}: slices on a track nest (one inside the other, or apart), as a host thread's
 *       ops do (a step holds its ops); only a slice that would cross the open ones moves on.</li>
 * </ul>
 *
 * <p>Both greedy in start order (longest first on equal starts, so a parent comes before its
 * children), first track that takes the slice: O(n log n + n·tracks).
 */
public final class TrackPacker {
    private TrackPacker() {
    }

    /** Track number (0 = the first) for each slice {@code [starts[i], ends[i])}: no overlap on a track. */
    public static int[] pack(long[] starts, long[] ends) {
        int n = starts.length;
        int[] track = new int[n];
        List<long[]> trackEnd = new ArrayList<>();
        for (int i : order(starts, ends, false)) {
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

    /**
     * Track number for each slice such that the slices of a track nest: sorted by start, each lies
     * inside the innermost slice still open at its start, or after all of them.
     */
    public static int[] nest(long[] starts, long[] ends) {
        int n = starts.length;
        int[] track = new int[n];
        List<OpenEnds> tracks = new ArrayList<>();
        for (int i : order(starts, ends, true)) {
            long end = Math.max(starts[i], ends[i]);
            int t = 0;
            while (t < tracks.size() && !tracks.get(t).accepts(starts[i], end)) {
                t++;
            }
            if (t == tracks.size()) {
                tracks.add(new OpenEnds());
            }
            tracks.get(t).push(end);
            track[i] = t;
        }
        return track;
    }

    /** The ends of the slices still open on one track, innermost last. */
    private static final class OpenEnds {
        private long[] ends = new long[8];
        private int size;

        /** Closes what ended by {@code start}; true when {@code [start, end)} fits in what stays open. */
        boolean accepts(long start, long end) {
            while (size > 0 && ends[size - 1] <= start) {
                size--;
            }
            return size == 0 || end <= ends[size - 1];
        }

        void push(long end) {
            if (size == ends.length) {
                ends = Arrays.copyOf(ends, size * 2);
            }
            ends[size++] = end;
        }
    }

    /** Indexes by start, the longest first among equal starts (the order a parent precedes its children in). */
    static int[] byStartLongestFirst(long[] starts, long[] ends) {
        return order(starts, ends, true);
    }

    /** Indexes by start, then by end (descending when {@code longestFirst}); no boxing. */
    private static int[] order(long[] starts, long[] ends, boolean longestFirst) {
        long[] tie = ends;
        if (longestFirst) {
            tie = new long[ends.length];
            for (int i = 0; i < tie.length; i++) {
                tie[i] = -ends[i];
            }
        }
        return PrimitiveSort.indexesSortedBy(starts, tie, starts.length);
    }
}
