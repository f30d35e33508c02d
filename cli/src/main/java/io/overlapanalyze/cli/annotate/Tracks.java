package io.overlapanalyze.cli.annotate;

import java.io.IOException;
import java.util.List;

/**
 * Writes a list of slices as one named track, spread by {@link TrackPacker} over {@code name},
 * {@code name (2)}, … as Perfetto's rule needs (slices on a track must nest). Within a track the
 * slices go out by start, longest first, so a parent always precedes its children.
 */
final class Tracks {
    private Tracks() {
    }

    /**
     * @param nest true when slices may sit inside each other on a track (host ops); false when
     *             they must not overlap at all (peers: kernels of a stream, the analysis tracks)
     * @return the next free tid
     */
    static int write(TraceEventWriter w, int pid, int firstTid, String name, List<Slice> slices, boolean nest)
            throws IOException {
        int n = slices.size();
        long[] starts = new long[n];
        long[] ends = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = slices.get(i).start();
            ends[i] = slices.get(i).end();
        }
        int[] packed = nest ? TrackPacker.nest(starts, ends) : TrackPacker.pack(starts, ends);
        int tracks = 1;
        for (int p : packed) {
            tracks = Math.max(tracks, p + 1);
        }
        for (int k = 0; k < tracks; k++) {
            w.threadName(pid, firstTid + k, k == 0 ? name : name + " (" + (k + 1) + ")");
        }
        for (int i : TrackPacker.byStartLongestFirst(starts, ends)) {
            Slice s = slices.get(i);
            w.slice(pid, firstTid + packed[i], s.start(), s.end(), s.name(), s.cat(), s.args());
        }
        return firstTid + tracks;
    }
}
