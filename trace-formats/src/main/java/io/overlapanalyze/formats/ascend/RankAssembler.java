package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.formats.input.HostRangeCollector;
import io.overlapanalyze.formats.input.ThreadTimeline;
import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.ProcessGroup;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.ReferenceOverlap;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;
import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.primitives.LongList;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects one device's worth of Ascend data (from the timeline JSON or the DB export) and builds
 * the {@link RankTrace}. Both inputs end here, so both get the same rules:
 * <ul>
 *   <li>one COMM interval per HCCL collective op: the op span (it includes waiting inside the op,
 *       as an NCCL kernel does); the plane tasks below it are not intervals (they lie inside the
 *       span and would only duplicate it);</li>
 *   <li>a collective's enqueue time is the start of the {@code c10d::*} op on the launching thread
 *       that encloses its launch (ascend.md §4), else the launch itself;</li>
 *   <li>a thread that runs {@code autograd::engine::evaluate_function:} ops but records no
 *       {@code ProfilerStep} is the autograd engine's: torch_npu names threads "Thread &lt;tid&gt;", so
 *       the {@code pt_autograd_N} name Kineto relies on is not there;</li>
 *   <li>the profiler's Overlap Analysis lane events go to the step whose device range contains
 *       their start, whole (torch_npu's rule, ascend.md §6), and are summed per step.</li>
 * </ul>
 */
final class RankAssembler {
    static final Pattern STEP = Pattern.compile("^ProfilerStep#(\\d+)$");
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    static final int OVERLAP_COMPUTING = 0;
    static final int OVERLAP_COMMUNICATION = 1;
    static final int OVERLAP_NOT_OVERLAPPED = 2;
    static final int OVERLAP_FREE = 3;

    RankAssembler(KernelRules rules) {
        this.rules = rules;
    }

    /** What a kernel is, as the run's options say. */
    private final KernelRules rules;
    private final StringPool names = new StringPool();
    final DeviceIntervals device = new DeviceIntervals(names);
    private final List<Lane> lanes = new ArrayList<>();
    private final Map<String, Integer> laneByKey = new HashMap<>();
    private final List<HostSpan> spans = new ArrayList<>();
    /** The {@code c10d::*} ops by thread; each one's payload is its index in {@link #c10dStarts}. */
    private final ThreadTimeline c10dOps = new ThreadTimeline();
    private final LongList c10dStarts = new LongList(64);
    private final Map<Long, Set<String>> threadNames = new LinkedHashMap<>();
    private final Set<Long> evaluateFunctionThreads = new LinkedHashSet<>();
    private final List<PendingCollective> pending = new ArrayList<>();
    private final Map<String, ProcessGroup> groups = new LinkedHashMap<>();
    private final List<long[]> overlapEvents = new ArrayList<>();
    private final List<ReferenceOverlap> directReference = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    boolean hostOpsPresent;

    private record PendingCollective(int interval, HcclOpName parsed, String name, String groupKey,
                                     String groupLabel, String dtype, long count) {
    }

    /** The lane for a device stream / communication thread, created on first use. */
    int lane(int dev, long stream, String label) {
        // Consecutive tasks mostly share a lane (and the reader shares label strings): no key per task.
        if (label == lastLabel && dev == lastLabelDev && lastLabelLane >= 0) {
            return lastLabelLane;
        }
        int lane = laneByLabel(dev, stream, label);
        lastLabel = label;
        lastLabelDev = dev;
        lastLabelLane = lane;
        return lane;
    }

    private String lastLabel;
    private int lastLabelDev;
    private int lastLabelLane = -1;

    private int laneByLabel(int dev, long stream, String label) {
        String key = dev + "\u0000" + label;
        Integer i = laneByKey.get(key);
        if (i != null) {
            return i;
        }
        int idx = lanes.size();
        lanes.add(new Lane(idx, dev, stream, label));
        laneByKey.put(key, idx);
        return idx;
    }

    /** The lane of device stream {@code stream}, labelled "Stream N": cached, no label built per task. */
    int streamLane(int dev, long stream) {
        if (dev == lastStreamDev && stream == lastStream && lastStreamLane >= 0) {
            return lastStreamLane;
        }
        int lane = lane(dev, stream, "Stream " + stream);
        lastStreamDev = dev;
        lastStream = stream;
        lastStreamLane = lane;
        return lane;
    }

    private int lastStreamDev;
    private long lastStream;
    private int lastStreamLane = -1;

    int task(int lane, long start, long end, DeviceKind kind, String name, long launchNs, long launchTid) {
        return device.add(start, Math.max(start, end), lane, kind, name, launchNs, launchTid);
    }

    /** An HCCL collective op; {@code groupKey} identifies the group across ranks. */
    int collective(int lane, long start, long end, String name, String groupKey, String groupLabel, String dtype,
                   long count, long launchNs, long launchTid) {
        // An MC² operator's own communication op (msprof's "kfc" op, on the communication lane and in
        // COMMUNICATION_OP): the communication inside a fused kernel, so fused, not communication.
        DeviceKind kind = name != null && rules.kindOfComputeTask(name) == DeviceKind.FUSED
                ? DeviceKind.FUSED : DeviceKind.COMM;
        int i = task(lane, start, end, kind, name, launchNs, launchTid);
        if (kind == DeviceKind.FUSED) {
            return i; // not a collective of its own: no gradient, prefetch or parallelism evidence
        }
        pending.add(new PendingCollective(i, HcclOpName.parse(name), name, groupKey, groupLabel, dtype, count));
        return i;
    }

    /**
     * A Python stack frame ({@code train.py(45): main}, {@code <string>(1): <module>}), which
     * torch_npu writes among the host ops when the stack is recorded: the whole script's frame would
     * be the outermost range of every instant, so frames are not host ranges (as Kineto's
     * {@code python_function} events are not).
     */
    private static final java.util.regex.Pattern PYTHON_FRAME = java.util.regex.Pattern.compile("\\(\\d++\\): ");

    /**
     * {@code name} matches {@code .*\(\d+\): .*} (one line holding "(digits): "), said in one
     * pass: that expression backtracks over the rest of the line for every "(1): " in it, quadratic
     * in a name made of them.
     */
    static boolean isPythonFrame(String name) {
        if (!name.contains("): ")) { // most names: no regex
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            // What '.' does not match: the line terminators of java.util.regex.
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return PYTHON_FRAME.matcher(name).find();
    }

    /** Host ops other than steps, outermost per thread (metrics.md §11). */
    private final HostRangeCollector hostRanges = new HostRangeCollector();

    void hostOp(String name, long start, long end, long tid) {
        hostOpsPresent = true;
        HostSpanKind kind = spanKind(name);
        if (kind != null) {
            spans.add(new HostSpan(kind, name, start, end, tid));
        }
        if (kind != HostSpanKind.STEP && !isPythonFrame(name)) {
            hostRanges.add(tid, start, end, name); // what the thread was doing (metrics.md §11)
        }
        if (name.startsWith("autograd::engine::evaluate_function: ")) {
            evaluateFunctionThreads.add(tid);
        }
        if (name.startsWith("c10d::")) {
            c10dOps.add(tid, start, end, c10dStarts.size());
            c10dStarts.add(start);
        }
    }

    static HostSpanKind spanKind(String name) {
        if (name.startsWith("ProfilerStep#") && STEP.matcher(name).matches()) {
            return HostSpanKind.STEP;
        }
        if (name.startsWith("Optimizer.step#")) {
            return HostSpanKind.OPTIMIZER;
        }
        if (name.startsWith("autograd::engine::evaluate_function: ") || name.contains("Backward")) {
            return HostSpanKind.BACKWARD;
        }
        return null;
    }

    /** A step span from a table of steps (DB {@code STEP_TIME}) rather than from a host op. */
    void hostSpanStep(HostSpan step) {
        spans.add(step);
    }

    void thread(long tid, String name) {
        threadNames.computeIfAbsent(tid, t -> new LinkedHashSet<>()).add(name);
    }

    void overlapEvent(int type, long start, long end) {
        overlapEvents.add(new long[] {type, start, end});
    }

    void reference(ReferenceOverlap r) {
        directReference.add(r);
    }

    RankTrace build(String source, TraceFormat format, int rank, RankSource rankSource, int worldSize,
                    boolean truncated, String overlapOrigin) {
        List<Collective> collectives = buildCollectives();
        spans.sort(Comparator.comparingLong(HostSpan::startNs)
                .thenComparing(Comparator.comparingLong(HostSpan::endNs).reversed()));
        List<ReferenceOverlap> reference = directReference.isEmpty() ? laneReference(overlapOrigin) : directReference;
        // Launch links here are flows and connection ids, not ordered ids: the time rule applies.
        device.markEndedBeforeFirstLaunch(new long[0]);
        return new RankTrace(source, format, rank, rankSource, worldSize, lanes, device, spans, threads(),
                collectives, new ArrayList<>(groups.values()), new long[0], hostOpsPresent, truncated, warnings,
                List.of(), reference, MemorySamples.empty(), null, List.of(), hostRanges.outermost(0));
    }

    private List<Collective> buildCollectives() {
        pending.sort(Comparator.comparingLong(p -> device.start(p.interval())));
        c10dOps.build();
        List<Collective> out = new ArrayList<>(pending.size());
        for (PendingCollective p : pending) {
            int id = out.size();
            HcclOpName n = p.parsed();
            CollectiveType type = n == null ? CollectiveType.fromName(p.name()) : n.type();
            String key = p.groupKey() != null ? p.groupKey() : n != null ? n.groupTag() : null;
            ProcessGroup group = key == null ? null
                    : groups.computeIfAbsent(key, k -> new ProcessGroup(k, p.groupLabel(), List.of()));
            boolean sameInOut = type == CollectiveType.ALL_REDUCE || type == CollectiveType.BROADCAST
                    || type == CollectiveType.REDUCE;
            long elems = p.count() >= 0 && sameInOut ? p.count() : -1;
            int size = dtypeBytes(p.dtype());
            long bytes = elems >= 0 && size > 0 ? elems * size : -1;
            int i = p.interval();
            long launch = device.launchNs(i);
            long tid = device.launchThread(i);
            long enqueue = enqueueOf(launch, tid);
            device.setCollective(i, id);
            out.add(new Collective(id, type, p.name(), group, n == null ? -1 : n.sequence(), elems, elems,
                    p.dtype(), bytes, enqueue, Time.isKnown(launch) ? tid : -1, new int[] {i}));
        }
        return out;
    }

    /** Start of the c10d op on {@code tid} that encloses the launch, else the launch itself. */
    private long enqueueOf(long launch, long tid) {
        if (!Time.isKnown(launch)) {
            return Time.UNKNOWN;
        }
        int outer = c10dOps.outermostContaining(tid, launch);
        return outer >= 0 ? c10dStarts.get(outer) : launch;
    }

    static int dtypeBytes(String dtype) {
        if (dtype == null) {
            return -1;
        }
        Matcher m = DIGITS.matcher(dtype);
        // At most four digits: a longer run ("float123456789012345678901") would overflow Integer.parseInt.
        if (m.find() && m.group().length() <= 4) {
            int bits = Integer.parseInt(m.group());
            return bits % 8 == 0 ? bits / 8 : -1;
        }
        return -1;
    }

    /**
     * Of ranges {@code [start, end)} in a given order, the first (in that order) that contains a
     * time. The ranges' starts and ends cut the time line into pieces on each of which the answer
     * is one range or none; one sweep finds them all, and a query is a binary search over the
     * pieces: no walk over the ranges for a lane event, however they overlap.
     */
    static final class FirstContaining {
        private final long[] pieceStart; // ascending; a piece runs to the next one's start
        private final int[] pieceFirst; // on it, the first range containing it, or -1

        FirstContaining(List<long[]> ranges) {
            LongList times = new LongList(2 * ranges.size());
            IntList changes = new IntList(2 * ranges.size()); // range i starts: i; ends: ~i
            for (int i = 0; i < ranges.size(); i++) {
                long[] r = ranges.get(i);
                if (r[0] < r[1]) {
                    times.add(r[0]);
                    changes.add(i);
                    times.add(r[1]);
                    changes.add(~i);
                }
            }
            long[] at = times.toArray();
            int[] order = PrimitiveSort.indexesSortedBy(at, at.length);
            TreeSet<Integer> open = new TreeSet<>();
            LongList starts = new LongList(at.length);
            IntList firsts = new IntList(at.length);
            for (int k = 0; k < order.length; ) {
                long t = at[order[k]];
                for (; k < order.length && at[order[k]] == t; k++) {
                    int change = changes.get(order[k]);
                    if (change >= 0) {
                        open.add(change);
                    } else {
                        open.remove(~change);
                    }
                }
                int first = open.isEmpty() ? -1 : open.first();
                if (firsts.size() == 0 || firsts.get(firsts.size() - 1) != first) {
                    starts.add(t);
                    firsts.add(first);
                }
            }
            pieceStart = starts.toArray();
            pieceFirst = firsts.toArray();
        }

        /** The lowest index of a range with start ≤ t < end, or -1. */
        int at(long t) {
            int piece = SortedSearch.lastAtOrBefore(pieceStart, t);
            return piece < 0 ? -1 : pieceFirst[piece];
        }
    }

    private List<HostThread> threads() {
        Set<Long> stepThreads = new LinkedHashSet<>();
        for (HostSpan s : spans) {
            if (s.kind() == HostSpanKind.STEP) {
                stepThreads.add(s.threadId());
            }
        }
        Map<Long, Set<String>> all = new LinkedHashMap<>(threadNames);
        for (Long t : evaluateFunctionThreads) {
            all.computeIfAbsent(t, k -> new LinkedHashSet<>());
        }
        List<HostThread> out = new ArrayList<>();
        for (Map.Entry<Long, Set<String>> e : all.entrySet()) {
            boolean autograd = evaluateFunctionThreads.contains(e.getKey()) && !stepThreads.contains(e.getKey());
            out.add(new HostThread(e.getKey(), new ArrayList<>(e.getValue()), autograd));
        }
        out.sort(Comparator.comparingLong(HostThread::threadId));
        return out;
    }

    /**
     * Per step, the sums of the Overlap Analysis lane. A step's device range is torch_npu's:
     * from the first device task launched inside the step to the later of the last such task's end
     * and the step's host end; without such a task, the host span.
     */
    private List<ReferenceOverlap> laneReference(String origin) {
        if (overlapEvents.isEmpty()) {
            return List.of();
        }
        List<HostSpan> steps = spans.stream().filter(s -> s.kind() == HostSpanKind.STEP).toList();
        List<String> stepNames = new ArrayList<>();
        List<long[]> ranges = new ArrayList<>();
        if (steps.isEmpty()) {
            stepNames.add("all");
            ranges.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        } else {
            // One pass over the intervals: each launch is looked up in the step spans (sorted, not
            // overlapping) by binary search, so many steps stay O(n log s).
            int n = steps.size();
            long[] starts = new long[n];
            long[] first = new long[n];
            long[] last = new long[n];
            for (int k = 0; k < n; k++) {
                starts[k] = steps.get(k).startNs();
                first[k] = Long.MAX_VALUE;
                last[k] = Long.MIN_VALUE;
            }
            for (int i = 0; i < device.size(); i++) {
                long l = device.launchNs(i);
                if (!Time.isKnown(l)) {
                    continue;
                }
                int k = java.util.Arrays.binarySearch(starts, l);
                k = k >= 0 ? k : -k - 2;
                if (k >= 0 && steps.get(k).contains(l)) {
                    first[k] = Math.min(first[k], device.start(i));
                    last[k] = Math.max(last[k], device.end(i));
                }
            }
            for (int k = 0; k < n; k++) {
                HostSpan s = steps.get(k);
                stepNames.add(s.name());
                ranges.add(first[k] == Long.MAX_VALUE ? new long[] {s.startNs(), s.endNs()}
                        : new long[] {first[k], Math.max(last[k], s.endNs())});
            }
        }
        long[][] sums = new long[ranges.size()][4];
        int outside = 0;
        FirstContaining stepOf = new FirstContaining(ranges);
        for (long[] e : overlapEvents) {
            int k = stepOf.at(e[1]);
            if (k < 0) {
                outside++;
                continue;
            }
            sums[k][(int) e[0]] += e[2] - e[1];
        }
        if (outside > 0) {
            warnings.add(outside + " Overlap Analysis lane event(s) start outside every step's device range;"
                    + " left out of the cross-check");
        }
        List<ReferenceOverlap> out = new ArrayList<>();
        for (int k = 0; k < ranges.size(); k++) {
            out.add(new ReferenceOverlap(stepNames.get(k), sums[k][OVERLAP_COMPUTING], sums[k][OVERLAP_COMMUNICATION],
                    sums[k][OVERLAP_NOT_OVERLAPPED], sums[k][OVERLAP_FREE], origin));
        }
        return out;
    }
}
