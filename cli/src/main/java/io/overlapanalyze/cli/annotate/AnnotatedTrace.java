package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.render.timeline.MarkerPoints;
import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.Collective;
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
 * {@code annotate}: the analysis laid over the trace as a Chrome-trace JSON that Perfetto and
 * chrome://tracing open. Per rank, in this order:
 * <ul>
 *   <li>an "overlap-analyze" process (with several ranks, "overlap-analyze rank R") with tracks
 *       "steps" (each step's device window), "markers" (the four markers as instants at their
 *       exact times), "tail", "exposed comm" (the C − K intervals) and "attribution chain" (one
 *       slice per link, args say what bound it);</li>
 *   <li>a "rank R device" process with one thread per device lane, each after its lane's GPU-side
 *       user annotations ("… annotations", when the trace has them);</li>
 *   <li>unless left out ({@link Layout#hostLanes()}), a "rank R host" process: the host lanes the
 *       reader kept ({@link HostLanes}).</li>
 * </ul>
 * A job's ranks are drawn on one clock: each rank's times have the clock offset the cross-rank
 * analysis estimated subtracted ({@link ClockShift}; said in each process's labels and in the
 * trace's {@code otherData.clockAlignment}). Args keep the report's values (the rank's own clock),
 * so they read as the report does. Built from the common model ({@link RankTrace}) and the
 * report, never by copying the input, so it works for every format a reader fills. Slices on one
 * thread never cross: {@link TrackPacker} moves one that would to an extra thread "(2)", "(3)", ….
 */
public final class AnnotatedTrace {
    private final TraceEventWriter w;
    private final boolean manyRanks;

    private AnnotatedTrace(TraceEventWriter w, boolean manyRanks) {
        this.w = w;
        this.manyRanks = manyRanks;
    }

    /**
     * What goes into the trace besides the analysis and the device lanes.
     *
     * @param hostLanes the ranks' host lanes (off: a smaller file)
     */
    public record Layout(boolean hostLanes) {
    }

    /**
     * Writes the annotated trace of every rank of {@code report} (traces from {@code index}), with
     * {@code clocks} applied.
     */
    public static void write(AnalysisReport report, TimelineIndex index, ClockShift clocks, Layout layout,
                             OutputStream out) throws IOException {
        try (TraceEventWriter w = new TraceEventWriter(out, metadata(report, clocks, layout))) {
            AnnotatedTrace a = new AnnotatedTrace(w, report.ranks().size() > 1);
            for (int i = 0; i < report.ranks().size(); i++) {
                RankReport rank = report.ranks().get(i);
                w.shift(clocks.offsetOf(rank.rank()));
                String labels = a.manyRanks ? clockLabel(clocks, rank.rank()) : null;
                a.analysis(rank, index, 3 * i + 1, 3 * i, labels);
                RankTrace trace = index.traceOf(rank);
                if (trace != null) {
                    a.device(rank, trace, 3 * i + 2, 3 * i + 1, labels);
                    if (layout.hostLanes()) {
                        HostLanes.write(w, trace, "rank " + rank.rank() + " host", labels, 3 * i + 3, 3 * i + 2);
                    }
                }
            }
        }
    }

    /** What the process labels say about a rank's clock. */
    private static String clockLabel(ClockShift clocks, int rank) {
        if (!clocks.applied()) {
            return "own clock (offsets not applied)";
        }
        if (!clocks.offsetsNs().containsKey(rank)) {
            return "own clock (not in the clock alignment)";
        }
        return "clock offset " + Micros.signed(clocks.offsetOf(rank)) + " µs subtracted";
    }

    /** The trace's otherData: the tool, the layout and the clock alignment. */
    private static Map<String, Object> metadata(AnalysisReport report, ClockShift clocks, Layout layout) {
        Map<String, Object> clock = null;
        if (clocks.summary() != null) {
            Map<String, Object> offsets = new LinkedHashMap<>();
            clocks.offsetsNs().forEach((r, ns) -> offsets.put(Integer.toString(r), ns));
            clock = Slice.args("applied", clocks.applied(), "summary", clocks.summary(),
                    "collectivesUsed", clocks.collectivesUsed(), "maxResidualNs", clocks.maxResidualNs(),
                    "offsetsNs", offsets);
        }
        return Slice.args("tool", report.tool(), "hostLanes", layout.hostLanes(), "clockAlignment", clock);
    }

    private void analysis(RankReport rank, TimelineIndex index, int pid, int sortIndex, String labels)
            throws IOException {
        w.processName(pid, "overlap-analyze" + (manyRanks ? " rank " + rank.rank() : ""), sortIndex);
        if (labels != null) {
            w.processLabels(pid, labels);
        }
        List<Slice> steps = new ArrayList<>();
        List<Slice> tails = new ArrayList<>();
        List<Slice> exposed = new ArrayList<>();
        List<Slice> chain = new ArrayList<>();
        for (StepReport s : rank.steps()) {
            if (s.deviceStartNs() == null) {
                continue;
            }
            steps.add(new Slice(s.deviceStartNs(), s.deviceEndNs(), s.name() + (s.partial() ? " (partial)" : ""),
                    "step", Slice.args("step", s.name(), "stepTimeNs", s.stepTimeNs(), "exposedCommNs", s.exposedCommNs(),
                    "tailNs", s.tailNs(), "partial", s.partial())));
            var m = s.markers();
            if (s.tailNs() != null && s.tailNs() > 0 && m.lastComputeEndNs() != null && m.lastReduceEndNs() != null) {
                tails.add(new Slice(m.lastComputeEndNs(), m.lastReduceEndNs(),
                        "tail " + Units.ms(s.tailNs()) + " ms (" + s.attribution().kind() + ")", "tail",
                        Slice.args("step", s.name(), "tailNs", s.tailNs(), "kind", s.attribution().kind().name())));
            }
            StepTimeline t = index.of(rank, s);
            if (t != null) {
                for (int r = 0; r < t.exposed().size(); r++) {
                    exposed.add(new Slice(t.exposed().start(r), t.exposed().end(r), "exposed comm", "exposed",
                            Slice.args("step", s.name())));
                }
            }
            List<ChainLink> links = s.attribution().chain();
            for (int k = 0; k < links.size(); k++) {
                ChainLink l = links.get(k);
                chain.add(new Slice(l.startNs(), l.endNs(),
                        (k + 1) + " " + l.type() + " " + Units.bytes(l.bytes()) + ": " + l.boundBy(), "chain",
                        Slice.args("step", s.name(), "link", k + 1, "boundBy", l.boundBy().name(),
                                "collective", l.collective(), "bytes", l.bytes(), "dataReadyNs", l.dataReadyNs(),
                                "enqueueNs", l.enqueueNs(), "queueFreeNs", l.queueFreeNs())));
            }
        }
        int tid = 1;
        tid = Tracks.write(w, pid, tid, "steps", steps, false);
        int markersTid = tid++;
        w.threadName(pid, markersTid, "markers");
        for (StepReport s : rank.steps()) {
            for (MarkerPoints.Point p : MarkerPoints.of(s.markers())) {
                w.instant(pid, markersTid, p.ns(), p.label(), "marker",
                        Slice.args("marker", p.key(), "step", s.name(), "ns", p.ns()));
            }
        }
        tid = Tracks.write(w, pid, tid, "tail", tails, false);
        tid = Tracks.write(w, pid, tid, "exposed comm", exposed, false);
        Tracks.write(w, pid, tid, "attribution chain", chain, false);
    }

    private void device(RankReport rank, RankTrace trace, int pid, int sortIndex, String labels) throws IOException {
        w.processName(pid, "rank " + rank.rank() + " device", sortIndex);
        if (labels != null) {
            w.processLabels(pid, labels);
        }
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
        // GPU-side user annotations (Kineto's gpu_user_annotation): one nesting track beside their lane.
        Map<Integer, List<Slice>> annotations = new java.util.HashMap<>();
        for (Annotation a : trace.annotations()) {
            if (a.lane() >= 0 && a.lane() < lanes) {
                annotations.computeIfAbsent(a.lane(), k -> new ArrayList<>())
                        .add(new Slice(a.startNs(), a.endNs(), a.name(), "annotation", Map.of()));
            }
        }
        int tid = 1;
        for (int l = 0; l < lanes; l++) {
            int[] members = byLane[l];
            Lane lane = trace.lanes().get(l);
            String label = "device " + lane.device() + " " + lane.label();
            if (annotations.containsKey(l)) {
                tid = Tracks.write(w, pid, tid, label + " annotations", annotations.get(l), true);
            }
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
            for (int k = 0; k < tracks; k++) {
                w.threadName(pid, tid + k, k == 0 ? label : label + " (" + (k + 1) + ")");
            }
            for (int j = 0; j < members.length; j++) {
                int i = members[j];
                String kind = dev.kind(i).name().toLowerCase(Locale.ROOT);
                w.slice(pid, tid + packed[j], starts[j], ends[j], dev.name(i), kind, deviceArgs(trace, i, kind));
            }
            tid += tracks;
        }
    }

    /** A kernel's kind, and for communication which collective it belongs to (as the cross-rank matching sees it). */
    private static Map<String, Object> deviceArgs(RankTrace trace, int i, String kind) {
        int c = trace.device().collective(i);
        if (c < 0 || c >= trace.collectives().size()) {
            return Map.of("kind", kind);
        }
        Collective col = trace.collectives().get(c);
        return Slice.args("kind", kind, "collective", col.type().name(),
                "group", col.group() == null ? null : col.group().name(),
                "sequence", col.sequence() >= 0 ? col.sequence() : null);
    }
}
