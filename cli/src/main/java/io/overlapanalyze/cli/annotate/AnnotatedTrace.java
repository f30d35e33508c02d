package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.render.timeline.MarkerPoints;
import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code annotate}: the analysis laid over the device timeline as a Chrome-trace JSON that
 * Perfetto and chrome://tracing open. Per rank, in this order:
 * <ul>
 *   <li>an "overlap-analyze" process (with several ranks, "overlap-analyze rank R") with tracks
 *       "steps" (each step's device window), "markers" (the four markers as instants at their
 *       exact times), "tail", "exposed comm" (the C − K intervals) and "attribution chain" (one
 *       slice per link, args say what bound it);</li>
 *   <li>a "rank R device" process with one thread per device lane.</li>
 * </ul>
 * Built from the common model ({@link RankTrace}) and the report, never by copying the input, so
 * it works for every format a reader fills. No two slices on one thread cross:
 * {@link TrackPacker} moves overlapping ones to extra threads named "(2)", "(3)", ….
 */
public final class AnnotatedTrace {
    private final TraceEventWriter w;
    private final boolean manyRanks;

    private AnnotatedTrace(TraceEventWriter w, boolean manyRanks) {
        this.w = w;
        this.manyRanks = manyRanks;
    }

    /** Writes the annotated trace of every rank of {@code report} (traces from {@code index}). */
    public static void write(AnalysisReport report, TimelineIndex index, OutputStream out) throws IOException {
        try (TraceEventWriter w = new TraceEventWriter(out)) {
            AnnotatedTrace a = new AnnotatedTrace(w, report.ranks().size() > 1);
            for (int i = 0; i < report.ranks().size(); i++) {
                RankReport rank = report.ranks().get(i);
                a.analysis(rank, index, 2 * i + 1, 2 * i);
                RankTrace trace = index.traceOf(rank);
                if (trace != null) {
                    a.device(rank, trace, 2 * i + 2, 2 * i + 1);
                }
            }
        }
    }

    /** One slice before packing. */
    private record Slice(long start, long end, String name, String cat, Map<String, Object> args) {
    }

    private void analysis(RankReport rank, TimelineIndex index, int pid, int sortIndex) throws IOException {
        w.processName(pid, "overlap-analyze" + (manyRanks ? " rank " + rank.rank() : ""), sortIndex);
        List<Slice> steps = new ArrayList<>();
        List<Slice> tails = new ArrayList<>();
        List<Slice> exposed = new ArrayList<>();
        List<Slice> chain = new ArrayList<>();
        for (StepReport s : rank.steps()) {
            if (s.deviceStartNs() == null) {
                continue;
            }
            steps.add(new Slice(s.deviceStartNs(), s.deviceEndNs(), s.name() + (s.partial() ? " (partial)" : ""),
                    "step", args("step", s.name(), "stepTimeNs", s.stepTimeNs(), "exposedCommNs", s.exposedCommNs(),
                    "tailNs", s.tailNs(), "partial", s.partial())));
            var m = s.markers();
            if (s.tailNs() != null && s.tailNs() > 0 && m.lastComputeEndNs() != null && m.lastReduceEndNs() != null) {
                tails.add(new Slice(m.lastComputeEndNs(), m.lastReduceEndNs(),
                        "tail " + Units.ms(s.tailNs()) + " ms (" + s.attribution().kind() + ")", "tail",
                        args("step", s.name(), "tailNs", s.tailNs(), "kind", s.attribution().kind().name())));
            }
            StepTimeline t = index.of(rank, s);
            if (t != null) {
                for (int r = 0; r < t.exposed().size(); r++) {
                    exposed.add(new Slice(t.exposed().start(r), t.exposed().end(r), "exposed comm", "exposed",
                            args("step", s.name())));
                }
            }
            List<ChainLink> links = s.attribution().chain();
            for (int k = 0; k < links.size(); k++) {
                ChainLink l = links.get(k);
                chain.add(new Slice(l.startNs(), l.endNs(),
                        (k + 1) + " " + l.type() + " " + Units.bytes(l.bytes()) + ": " + l.boundBy(), "chain",
                        args("step", s.name(), "link", k + 1, "boundBy", l.boundBy().name(),
                                "collective", l.collective(), "bytes", l.bytes(), "dataReadyNs", l.dataReadyNs(),
                                "enqueueNs", l.enqueueNs(), "queueFreeNs", l.queueFreeNs())));
            }
        }
        int tid = 1;
        tid = track(pid, tid, "steps", steps);
        int markersTid = tid++;
        w.threadName(pid, markersTid, "markers");
        for (StepReport s : rank.steps()) {
            for (MarkerPoints.Point p : MarkerPoints.of(s.markers())) {
                w.instant(pid, markersTid, p.ns(), p.label(), "marker",
                        args("marker", p.key(), "step", s.name(), "ns", p.ns()));
            }
        }
        tid = track(pid, tid, "tail", tails);
        tid = track(pid, tid, "exposed comm", exposed);
        track(pid, tid, "attribution chain", chain);
    }

    /** Writes slices on {@code name}, {@code name (2)}, … as packing needs; returns the next free tid. */
    private int track(int pid, int firstTid, String name, List<Slice> slices) throws IOException {
        long[] starts = new long[slices.size()];
        long[] ends = new long[slices.size()];
        for (int i = 0; i < slices.size(); i++) {
            starts[i] = slices.get(i).start();
            ends[i] = slices.get(i).end();
        }
        int[] packed = TrackPacker.pack(starts, ends);
        int tracks = 1;
        for (int p : packed) {
            tracks = Math.max(tracks, p + 1);
        }
        for (int k = 0; k < tracks; k++) {
            w.threadName(pid, firstTid + k, k == 0 ? name : name + " (" + (k + 1) + ")");
        }
        for (int i = 0; i < slices.size(); i++) {
            Slice s = slices.get(i);
            w.slice(pid, firstTid + packed[i], s.start(), s.end(), s.name(), s.cat(), s.args());
        }
        return firstTid + tracks;
    }

    private void device(RankReport rank, RankTrace trace, int pid, int sortIndex) throws IOException {
        w.processName(pid, "rank " + rank.rank() + " device", sortIndex);
        DeviceIntervals dev = trace.device();
        int lanes = trace.lanes().size();
        int[] count = new int[lanes];
        for (int i = 0; i < dev.size(); i++) {
            count[dev.lane(i)]++;
        }
        int[][] byLane = new int[lanes][];
        for (int l = 0; l < lanes; l++) {
            byLane[l] = new int[count[l]];
            count[l] = 0;
        }
        for (int i = 0; i < dev.size(); i++) {
            byLane[dev.lane(i)][count[dev.lane(i)]++] = i;
        }
        int tid = 1;
        for (int l = 0; l < lanes; l++) {
            int[] members = byLane[l];
            if (members.length == 0) {
                continue;
            }
            long[] starts = new long[members.length];
            long[] ends = new long[members.length];
            for (int j = 0; j < members.length; j++) {
                starts[j] = dev.start(members[j]);
                ends[j] = dev.end(members[j]);
            }
            int[] packed = TrackPacker.pack(starts, ends);
            int tracks = 1;
            for (int p : packed) {
                tracks = Math.max(tracks, p + 1);
            }
            Lane lane = trace.lanes().get(l);
            String label = "device " + lane.device() + " " + lane.label();
            for (int k = 0; k < tracks; k++) {
                w.threadName(pid, tid + k, k == 0 ? label : label + " (" + (k + 1) + ")");
            }
            for (int j = 0; j < members.length; j++) {
                int i = members[j];
                String kind = dev.kind(i).name().toLowerCase(Locale.ROOT);
                w.slice(pid, tid + packed[j], starts[j], ends[j], dev.name(i), kind, Map.of("kind", kind));
            }
            tid += tracks;
        }
    }

    /** Args in the given order; {@code null} values are left out when written. */
    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
