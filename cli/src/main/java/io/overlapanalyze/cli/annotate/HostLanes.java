package io.overlapanalyze.cli.annotate;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.IntList;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A rank's host lanes as its reader kept them (what users of HTA's augmented traces expect beside
 * the analysis): one track group per host thread, named by the thread's id and names, holding
 * <ul>
 *   <li>slices: the step, optimizer and backward spans, the outermost host ranges (ops,
 *       annotations, NVTX ranges: a reader keeps only the top level of each thread, so a trace with
 *       millions of nested ops stays small) and the host {@code record_function} annotations, each
 *       once (the same range kept as a span and as a range is one slice);</li>
 *   <li>instants: every kernel, copy or set launch (at its host launch time, args naming the device
 *       work) and every collective's enqueue.</li>
 * </ul>
 * Slices nest on a track (a step holds its ops); one that would cross moves to "… (2)". Built
 * from the common model, so it works for every format; a format without host data has no host
 * process.
 */
final class HostLanes {
    private HostLanes() {
    }

    /** Writes rank {@code rank}'s host process under {@code pid} (nothing when the trace has no host data). */
    static void write(TraceEventWriter w, RankTrace trace, String processName, String labels, int pid, int sortIndex)
            throws IOException {
        Map<Long, List<Slice>> slices = new TreeMap<>();
        // Launches and enqueues by thread as indexes, their args made only as each is written: a
        // rank can launch millions of kernels.
        Map<Long, IntList> launches = new TreeMap<>();
        Map<Long, IntList> enqueues = new TreeMap<>();
        Set<SpanKey> seen = new HashSet<>();
        for (HostSpan s : trace.hostSpans()) {
            addSpan(slices, seen, s.threadId(), s.startNs(), s.endNs(), s.name(),
                    "host " + s.kind().name().toLowerCase(Locale.ROOT));
        }
        for (HostSpan s : trace.hostRanges()) {
            addSpan(slices, seen, s.threadId(), s.startNs(), s.endNs(), s.name(), "host op");
        }
        for (Annotation a : trace.annotations()) {
            if (a.lane() < 0) {
                addSpan(slices, seen, a.threadId(), a.startNs(), a.endNs(), a.name(), "annotation");
            }
        }
        DeviceIntervals dev = trace.device();
        for (int i = 0; i < dev.size(); i++) {
            if (Time.isKnown(dev.launchNs(i))) {
                launches.computeIfAbsent(dev.launchThread(i), t -> new IntList(64)).add(i);
            }
        }
        List<Collective> collectives = trace.collectives();
        for (int c = 0; c < collectives.size(); c++) {
            if (Time.isKnown(collectives.get(c).enqueueNs())) {
                enqueues.computeIfAbsent(collectives.get(c).threadId(), t -> new IntList(16)).add(c);
            }
        }
        Set<Long> threads = new java.util.TreeSet<>(slices.keySet());
        threads.addAll(launches.keySet());
        threads.addAll(enqueues.keySet());
        if (threads.isEmpty()) {
            return;
        }
        w.processName(pid, processName, sortIndex);
        if (labels != null) {
            w.processLabels(pid, labels);
        }
        Map<Long, String> names = threadNames(trace.threads());
        int tid = 1;
        for (long thread : threads) {
            String given = names.get(thread);
            // Kineto names its threads "thread 4242 (pt_main_thread)" already: said once, not twice.
            String name = given == null ? "thread " + thread
                    : given.startsWith("thread " + thread) ? given : "thread " + thread + " (" + given + ")";
            int first = tid;
            tid = Tracks.write(w, pid, first, name, slices.getOrDefault(thread, List.of()), true);
            IntList launched = launches.get(thread);
            for (int k = 0; launched != null && k < launched.size(); k++) {
                int i = launched.get(k);
                w.instant(pid, first, dev.launchNs(i), "launch " + dev.name(i), "launch", Slice.args("kernel",
                        dev.name(i), "kind", dev.kind(i).name().toLowerCase(Locale.ROOT),
                        "lane", trace.lanes().get(dev.lane(i)).label(), "deviceStartNs", dev.start(i)));
            }
            IntList enqueued = enqueues.get(thread);
            for (int k = 0; enqueued != null && k < enqueued.size(); k++) {
                Collective c = collectives.get(enqueued.get(k));
                w.instant(pid, first, c.enqueueNs(), "enqueue " + c.name(), "enqueue", Slice.args(
                        "collective", c.type().name(), "group", c.group() == null ? null : c.group().name(),
                        "sequence", c.sequence() >= 0 ? c.sequence() : null, "bytes", c.bytes() >= 0 ? c.bytes() : null));
            }
        }
    }

    private record SpanKey(long thread, long start, long end, String name) {
    }

    private static void addSpan(Map<Long, List<Slice>> slices, Set<SpanKey> seen, long thread, long start, long end,
                                String name, String cat) {
        if (seen.add(new SpanKey(thread, start, end, name))) {
            slices.computeIfAbsent(thread, t -> new ArrayList<>())
                    .add(new Slice(start, end, name, cat, Map.of()));
        }
    }

    /** Every distinct name a thread was given, joined ("pt_main_thread"; "python / pt_main_thread"). */
    private static Map<Long, String> threadNames(List<HostThread> threads) {
        Map<Long, Set<String>> names = new TreeMap<>();
        for (HostThread t : threads) {
            names.computeIfAbsent(t.threadId(), k -> new LinkedHashSet<>()).addAll(t.names());
        }
        Map<Long, String> out = new TreeMap<>();
        names.forEach((k, v) -> {
            if (!v.isEmpty()) {
                out.put(k, String.join(" / ", v));
            }
        });
        return out;
    }
}
