package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.TraceFormatException;
import io.overlapanalyze.formats.json.DecimalMicros;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the events of an Ascend timeline mean (ascend.md §3), and what of them is kept: process and
 * thread metadata, host ops and threads, device tasks, collectives, the Overlap Analysis lane,
 * launch flows and communication streams; at the end the {@link RankTrace}s, one per device.
 *
 * <p>{@link TimelineReader} decides how the file is read (one pass or two, scanner or Jackson) and
 * hands each event over in the {@link EventFields} it filled, through {@link #take} (the single
 * pass) or {@link #metadata} then {@link #event} (the two passes). The holder is only read here,
 * never kept: what is kept is copied out of it. Lanes are resolved by name, and only when a
 * process's metadata is final; devices only in {@link #build}, once every process's metadata is known.
 */
final class TimelineCollector {
    private static final Pattern GROUP_THREAD = Pattern.compile("^Group\\s+(\\S+)\\s+Communication$");
    private static final Pattern PLANE_THREAD = Pattern.compile("^Plane\\s+\\d+$");

    private final List<Path> parts;
    private final String source;
    private final IntFunction<RankInfo> rankOfDevice;
    /** What a kernel is, as the run's options say. */
    private final KernelRules rules;

    // metadata
    private final Map<String, String> processName = new HashMap<>();
    private final Map<String, String> processLabel = new HashMap<>();
    private final Map<String, String> processSortIndex = new HashMap<>();
    private final Map<String, String> threadName = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /** Events skipped for a time that cannot be read, by file, lane and field. */
    private final io.overlapanalyze.formats.input.Warnings unreadableTimes = new io.overlapanalyze.formats.input.Warnings();
    private long unreadableEvents;
    private boolean truncated;

    // events
    private final List<long[]> hostOps = new ArrayList<>();       // start, end, tid, nameIndex
    private final List<String> hostOpNames = new ArrayList<>();
    private final Map<Long, String> hostThreads = new TreeMap<>();
    private boolean hostOpsPresent;
    private final DeviceEventTable deviceEvents = new DeviceEventTable();
    /** The communication streams the plane tasks name, by the pid of their process. */
    private final Map<String, Set<Long>> commStreams = new HashMap<>();
    private final FlowIndex flows = new FlowIndex();

    // where the event is, for the messages
    private String file;
    private long eventNumber;

    // the single pass: processes whose events were taken (their metadata must not come later)
    private final Set<String> usedPids = new HashSet<>();
    private String lastUsed;

    /** A collector for one read of the timeline in {@code parts} (the first names it in messages). */
    TimelineCollector(List<Path> parts, String source, IntFunction<RankInfo> rankOfDevice, KernelRules rules) {
        this.parts = parts;
        this.source = source;
        this.rankOfDevice = rankOfDevice;
        this.rules = rules;
    }

    /** The events that follow are those of {@code file}, counted from its first. */
    void part(String file) {
        this.file = file;
        eventNumber = 0;
    }

    /** An event of the part that nothing is taken from (it still counts, for the messages). */
    void skip() {
        eventNumber++;
    }

    /**
     * One event of the single pass: metadata is kept, other events are taken at once. False when
     * metadata comes for a process whose events were already taken: then the file needs the two
     * passes. The same for both paths' single pass.
     */
    boolean take(EventFields e) throws TraceFormatException {
        eventNumber++;
        if ("M".equals(e.ph)) {
            if (e.pid != null && usedPids.contains(e.pid)) {
                return false;
            }
            keepMetadata(e);
        } else {
            if ("X".equals(e.ph) && e.pid != null && e.pid != lastUsed) {
                usedPids.add(e.pid);
                lastUsed = e.pid;
            }
            keepEvent(e);
        }
        return true;
    }

    /** One event of the first of two passes: only metadata is kept. */
    void metadata(EventFields e) {
        eventNumber++;
        if ("M".equals(e.ph)) {
            keepMetadata(e);
        }
    }

    /** One event of the second of two passes, once all metadata is known: metadata is not kept again. */
    void event(EventFields e) throws TraceFormatException {
        eventNumber++;
        keepEvent(e);
    }

    /** The read stopped early ({@code warning} says where): the traces are marked truncated. */
    void truncated(String warning) {
        truncated = true;
        warnings.add(warning);
    }

    /** The metadata names a process of the Ascend lanes, else there is nothing to analyse. */
    void requireAscendLanes() throws TraceFormatException {
        if (!processName.containsValue("Ascend Hardware") && !processName.containsValue("HCCL")
                && !processName.containsValue("Communication") && !processName.containsValue("Overlap Analysis")) {
            if (truncated) {
                throw new TraceFormatException(warnings.get(0).substring("truncated: ".length())
                        + ", before any Ascend lane metadata (process_name \"Ascend Hardware\"/\"HCCL\"): nothing to analyse");
            }
            throw new TraceFormatException(parts.get(0) + ": not an Ascend timeline: no process named"
                    + " \"Ascend Hardware\", \"HCCL\" or \"Communication\" in the metadata events");
        }
    }

    private void keepMetadata(EventFields e) {
        if (e.pid == null || e.name == null) {
            return;
        }
        String value = e.argName;
        switch (e.name) {
            case "process_name" -> {
                if (value != null) {
                    processName.put(e.pid, value);
                }
            }
            case "process_labels" -> {
                String labels = e.argLabels;
                if (labels != null) {
                    processLabel.put(e.pid, labels);
                }
            }
            case "process_sort_index" -> {
                if (e.argSortIndex != null) {
                    processSortIndex.put(e.pid, e.argSortIndex);
                }
            }
            case "thread_name" -> {
                if (value != null && e.tid != null) {
                    threadName.put(e.pid + "|" + e.tid, value);
                }
            }
            default -> { }
        }
    }


    private void keepEvent(EventFields e) throws TraceFormatException {
        if (e.ph == null || e.pid == null) {
            return;
        }
        switch (e.ph) {
            case "X" -> complete(e);
            case "s" -> flowStart(e);
            case "f" -> flowEnd(e);
            default -> { }
        }
    }

    private void complete(EventFields e) throws TraceFormatException {
        String process = processName.get(e.pid);
        if (process == null || e.name == null) {
            return;
        }
        try {
            completeOf(process, e);
        } catch (UnreadableTime u) {
            unreadable(process, u);
        }
    }

    /**
     * An event whose {@code ts} or {@code dur} is no number of µs (text, NaN, out of range) is
     * skipped and counted per process lane and field, one warning each: the kernel rule of the
     * other readers. It never refuses the file, and never becomes an event at 0.
     */
    private void unreadable(String process, UnreadableTime u) {
        // The file is named by whoever prints the warning; a part of several (msprof slices) is named here.
        unreadableTimes.add((parts.size() > 1 ? file + ": " : "") + "\"" + process + "\" events without a readable \"" + u.field + "\" skipped",
                "event " + eventNumber + ": " + (u.value == null ? "missing" : "\"" + abbreviate(u.value) + "\""));
        unreadableEvents++;
    }

    /** A time that cannot be read; caught per event (no stack trace: it is expected damage). */
    private static final class UnreadableTime extends RuntimeException {
        final String field;
        final String value;

        UnreadableTime(String field, String value) {
            super(null, null, false, false);
            this.field = field;
            this.value = value;
        }
    }

    private void completeOf(String process, EventFields e) throws TraceFormatException {
        switch (process) {
            case "Python" -> {
                hostOpsPresent = true;
                long tid = longOf(e.tid, "tid");
                String name = threadNameOf(e.pid, e.tid);
                if (name != null) {
                    hostThreads.put(tid, name);
                }
                // Every host op: steps and phases, c10d ops, and what the host was doing (metrics.md §11).
                if (e.ts.present) {
                    long start = ns(e.ts, "ts");
                    hostOps.add(new long[] {start, end(start, ns(e.dur, "dur")), tid, hostOpNames.size()});
                    hostOpNames.add(e.name);
                }
            }
            case "Ascend Hardware" -> {
                if (TaskKinds.isProfilerMarker(e.name)) {
                    return;
                }
                long start = ns(e.ts, "ts");
                long stream = longOf(e.tid, "tid");
                String lane = threadNameOf(e.pid, e.tid);
                if (lane == null) {
                    lane = "Stream " + e.tid;
                }
                deviceEvents.task(e.pid, e.tid, lane, stream, start, end(start, ns(e.dur, "dur")),
                        e.name, e.argTaskType);
            }
            case "HCCL", "Communication" -> hccl(e);
            case "Overlap Analysis" -> {
                int type = overlapType(threadNameOf(e.pid, e.tid));
                if (type >= 0) {
                    long start = ns(e.ts, "ts");
                    deviceEvents.overlap(e.pid, e.tid, start, end(start, ns(e.dur, "dur")), e.name,
                            type);
                }
            }
            default -> { }
        }
    }

    private void hccl(EventFields e) throws TraceFormatException {
        String thread = threadNameOf(e.pid, e.tid);
        if (thread == null) {
            thread = "";
        }
        if (PLANE_THREAD.matcher(thread).matches()) {
            // Plane tasks: not intervals (they lie inside their op); they say which stream is the
            // communication stream, whose hardware tasks must not count as compute.
            String stream = e.argStreamId;
            if (stream != null) {
                try {
                    commStreams.computeIfAbsent(e.pid, d -> new HashSet<>()).add(Long.parseLong(stream));
                } catch (NumberFormatException ignored) {
                    // a stream id we cannot read only loses the exclusion, not the file
                }
            }
            return;
        }
        if (!e.name.startsWith("hcom_") && !thread.endsWith("Communication")) {
            return;
        }
        long start = ns(e.ts, "ts");
        Matcher g = GROUP_THREAD.matcher(thread);
        // "Group 0 Communication" (older) names no group; "Group <hash> Communication" does.
        String groupKey = g.matches() && g.group(1).length() > 3 ? g.group(1) : null;
        long count = -1;
        String c = e.argCount;
        if (c != null) {
            try {
                count = Long.parseLong(c);
            } catch (NumberFormatException ignored) {
                count = -1;
            }
        }
        deviceEvents.collective(e.pid, e.tid, thread.isEmpty() ? "Communication" : thread, start,
                end(start, ns(e.dur, "dur")), e.name, e.argDataType, count, groupKey);
    }

    private static int overlapType(String thread) {
        if (thread == null) {
            return -1;
        }
        return switch (thread) {
            case "Computing" -> RankAssembler.OVERLAP_COMPUTING;
            case "Communication" -> RankAssembler.OVERLAP_COMMUNICATION;
            case "Communication(Not Overlapped)" -> RankAssembler.OVERLAP_NOT_OVERLAPPED;
            case "Free" -> RankAssembler.OVERLAP_FREE;
            default -> -1;
        };
    }

    private void flowStart(EventFields e) throws TraceFormatException {
        if (!e.id.present || !e.ts.present || e.cat == null) {
            return;
        }
        long tid = longOf(e.tid, "tid");
        long ts;
        try {
            ts = ns(e.ts, "ts");
        } catch (UnreadableTime u) {
            unreadable("flow start", u);
            return;
        }
        int kind = flowKind(e.cat);
        if (kind >= 0) {
            flows.start(kind, flowId(e), tid, ts);
        }
    }

    private void flowEnd(EventFields e) throws TraceFormatException {
        if (!e.id.present || !e.ts.present || e.cat == null) {
            return;
        }
        // The flow's end has the ts of its target event; torch_npu matches on pid-tid-ts too.
        long ts;
        try {
            ts = ns(e.ts, "ts");
        } catch (UnreadableTime u) {
            unreadable("flow end", u);
            return;
        }
        int kind = flowKind(e.cat);
        if (kind >= 0) {
            flows.end(kind, e.pid, e.tid, ts, flowId(e));
        }
    }

    private long flowId(EventFields e) {
        return e.id.valueKnown ? e.id.value : flows.id(e.id.buf, 0, e.id.len);
    }

    private static int flowKind(String cat) {
        return switch (cat) {
            case "async_npu" -> FlowIndex.ASYNC;
            case "HostToDevice" -> FlowIndex.H2D;
            default -> -1;
        };
    }

    /**
     * {@code threadName} of (pid, tid) without building the key string per event. Only asked for events
     * of processes whose metadata is final (the one-pass read falls back to two passes when metadata
     * of a process arrives after its events), so the answer can be cached.
     */
    private String threadNameOf(String pid, String tid) {
        Map<String, String> byTid = threadNameCache.computeIfAbsent(pid, k -> new HashMap<>());
        String name = byTid.get(tid);
        if (name == null) {
            String found = threadName.get(pid + "|" + tid);
            name = found == null ? NO_NAME : found;
            byTid.put(tid, name);
        }
        return name == NO_NAME ? null : name;
    }

    private static final String NO_NAME = new String("\u0000none");
    private final Map<String, Map<String, String>> threadNameCache = new HashMap<>();

    /**
     * The traces, one per device, once every event has been handed over; an error when events
     * were given but none with readable times is left (nothing to analyse, not an empty device).
     */
    List<RankTrace> build() throws TraceFormatException {
        DeviceEventTable d = deviceEvents;
        if (unreadableEvents > 0 && d.size() == 0) {
            throw new TraceFormatException(parts.get(0) + ": no device event with a readable time (" + unreadableEvents
                    + " events skipped; " + unreadableTimes.lines().get(0) + ")");
        }
        warnings.addAll(unreadableTimes.lines());
        Set<String> devicePids = new LinkedHashSet<>(d.pids());
        devicePids.addAll(commStreams.keySet());
        ProcessDevices devices = new ProcessDevices(devicePids, processName, processLabel, processSortIndex);
        d.assignDevices(devices::of);
        warnings.addAll(devices.warnings());
        Map<Integer, Set<Long>> commStreamsByDevice = new HashMap<>();
        for (Map.Entry<String, Set<Long>> c : commStreams.entrySet()) {
            commStreamsByDevice.computeIfAbsent(devices.of(c.getKey()), k -> new HashSet<>()).addAll(c.getValue());
        }
        Map<Integer, RankAssembler> byDevice = new TreeMap<>();
        for (int i = 0; i < d.size(); i++) {
            byDevice.computeIfAbsent(d.device(i), k -> new RankAssembler(rules));
        }
        if (byDevice.isEmpty()) {
            byDevice.put(0, new RankAssembler(rules));
        }
        List<RankTrace> out = new ArrayList<>();
        boolean typesResolved = false;
        boolean aiCoreTyped = false;
        boolean anyUnresolved = false;
        for (int i = 0; i < d.size(); i++) {
            if (d.role(i) == DeviceEventTable.TASK) {
                String type = d.taskType(i);
                typesResolved |= type != null && !TaskKinds.UNRESOLVED.equals(type);
                aiCoreTyped |= type != null && TaskKinds.AI_CORE.contains(type);
                anyUnresolved |= TaskKinds.UNRESOLVED.equals(type);
                if (aiCoreTyped) {
                    break; // the types are resolved: the usual file stops at its first kernel
                }
            }
        }
        boolean unresolvedIsCompute = anyUnresolved && !aiCoreTyped;
        for (Map.Entry<Integer, RankAssembler> entry : byDevice.entrySet()) {
            int dev = entry.getKey();
            RankAssembler a = entry.getValue();
            a.hostOpsPresent = hostOpsPresent;
            for (Map.Entry<Long, String> t : hostThreads.entrySet()) {
                a.thread(t.getKey(), t.getValue());
            }
            for (long[] h : hostOps) {
                a.hostOp(hostOpNames.get((int) h[3]), h[0], h[1], h[2]);
            }
            Set<Long> comm = commStreamsByDevice.getOrDefault(dev, Set.of());
            for (int i = 0; i < d.size(); i++) {
                if (d.device(i) != dev) {
                    continue;
                }
                byte role = d.role(i);
                long[] launch = role == DeviceEventTable.OVERLAP ? null : flows.launchOf(d.pid(i), d.tid(i), d.start(i));
                long launchNs = launch == null ? Time.UNKNOWN : launch[1];
                long launchTid = launch == null ? -1 : launch[0];
                if (role == DeviceEventTable.TASK) {
                    DeviceKind kind = TaskKinds.ofTaskType(d.taskType(i), d.name(i), unresolvedIsCompute);
                    if (kind == DeviceKind.COMPUTE && comm.contains(d.stream(i))) {
                        kind = DeviceKind.OTHER; // the communication stream's tasks are not compute
                    } else if (kind == DeviceKind.COMPUTE) {
                        kind = rules.kindOfComputeTask(d.name(i)); // MC² operators are fused
                    }
                    a.task(a.lane(dev, d.stream(i), d.lane(i)), d.start(i), d.end(i), kind, d.name(i), launchNs,
                            launchTid);
                } else if (role == DeviceEventTable.COLLECTIVE) {
                    DeviceEventTable.Rare r = d.rare(i);
                    a.collective(a.lane(dev, -1, d.lane(i)), d.start(i), d.end(i), d.name(i), r.groupKey(), d.lane(i),
                            r.dtype(), r.count(), launchNs, launchTid);
                } else {
                    a.overlapEvent(d.rare(i).overlapType(), d.start(i), d.end(i));
                }
            }
            a.warnings.addAll(warnings);
            if (a.device.size() > 0 && unresolvedIsCompute) {
                a.warnings.add("device tasks of \"Task Type\" \"Other\" counted as compute: no task is typed as AI Core"
                        + " work (an older profiler left those types unresolved), and the profiler's own Computing"
                        + " lane counts them");
            } else if (a.device.size() > 0 && !typesResolved) {
                a.warnings.add("device tasks carry no known \"Task Type\": none counted as compute");
            }
            RankInfo info = rankOfDevice.apply(dev);
            if (info.warning() != null) {
                a.warnings.add(info.warning());
            }
            out.add(a.build(source, TraceFormat.ASCEND, info.rank(), info.source(), -1, truncated,
                    parts.get(0).getFileName() + " Overlap Analysis lane"));
        }
        return out;
    }

    private UnreadableTime bad(String field, String value) {
        return new UnreadableTime(field, value);
    }

    /** {@code start + dur}; a sum beyond the range of ns is an unreadable {@code dur}. */
    private static long end(long start, long dur) {
        try {
            return Math.addExact(start, dur);
        } catch (ArithmeticException ex) {
            throw new UnreadableTime("dur", dur + " ns after ts, beyond the range of times");
        }
    }

    private long ns(EventFields.Slice text, String field) {
        if (!text.present) {
            if ("dur".equals(field)) {
                return 0;
            }
            throw bad(field, null);
        }
        if (text.valueKnown) {
            return text.value;
        }
        try {
            return DecimalMicros.toNanos(text.buf, 0, text.len);
        } catch (NumberFormatException | ArithmeticException ex) {
            throw bad(field, text.text());
        }
    }

    private long longOf(String text, String field) throws TraceFormatException {
        if (text == null) {
            return -1;
        }
        // tids repeat, as the same String (TextCache, Utf8NameTable), a few of them in turn (the
        // host thread's flows, then the stream's kernels): a small cache by identity
        int slot = text.hashCode() & (LONG_CACHE - 1);
        if (longTexts[slot] == text) {
            return longValues[slot];
        }
        try {
            long v = Long.parseLong(text);
            longTexts[slot] = text;
            longValues[slot] = v;
            return v;
        } catch (NumberFormatException ex) {
            try {
                return new java.math.BigDecimal(text).longValueExact();
            } catch (NumberFormatException | ArithmeticException ex2) {
                throw new TraceFormatException(file + ": event " + eventNumber + ": \"" + field + "\" is not an integer: \""
                        + abbreviate(text) + "\"");
            }
        }
    }

    private static final int LONG_CACHE = 8;
    private final String[] longTexts = new String[LONG_CACHE];
    private final long[] longValues = new long[LONG_CACHE];

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
