package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.formats.input.HostRangeCollector;
import io.overlapanalyze.formats.input.ThreadTimeline;
import io.overlapanalyze.formats.input.Warnings;
import io.overlapanalyze.formats.kernels.KernelClassifier;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.LongList;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Keeps what the reader needs from each event as it streams by: device intervals (in the columnar
 * model store), launch calls, collective CPU ops, step/phase spans and thread names. Everything is
 * kept in the file's own time frame (relative µs when the file has a {@code baseTimeNanoseconds});
 * joins happen once the whole file is read, because related events come in any order.
 */
final class TraceCollector {
    static final long NONE = CollectiveArgs.NONE;
    static final Pattern STEP = Pattern.compile("ProfilerStep\\s*#\\s*(\\d+)");
    private static final Pattern COMM_ANNOTATION = Pattern.compile("^(nccl|rccl|gloo|hccl|ucc|mpi|xccl):.*");

    final KernelClassifier classifier;
    final Warnings warnings;
    private final Map<String, DeviceKind> kernelKinds = new HashMap<>();
    private final Map<String, DeviceKind> mtiaKinds = new HashMap<>();
    final StringPool names = new StringPool();
    final DeviceIntervals device = new DeviceIntervals(names, 4096);

    // Lanes: (device pid, stream) → index, in first-seen order.
    final List<long[]> laneKeys = new ArrayList<>();
    private final Map<List<Long>, Integer> laneIndex = new HashMap<>();

    // Per device interval (same index as in `device`).
    final LongList devCorrelation = new LongList(4096);
    final LongList devExternalId = new LongList(4096);
    final BitSet devIsKernel = new BitSet();
    final Map<Integer, CollectiveArgs> kernelArgs = new HashMap<>();
    final Set<Long> devicePids = new HashSet<>();

    // Runtime / driver calls with a correlation id.
    final LongList rtCorrelation = new LongList(4096);
    final LongList rtTs = new LongList(4096);
    final LongList rtTid = new LongList(4096);
    final LongList rtExternalId = new LongList(4096);
    final BitSet rtLaunches = new BitSet();

    // cuda_sync "Stream Wait Event" rows: joined to their cudaEventRecord call once all is read.
    final LongList waitLane = new LongList(16);
    final LongList waitTs = new LongList(16);
    final LongList waitCorrelation = new LongList(16);
    final LongList waitOnStream = new LongList(16);
    final LongList waitRecordCorrelation = new LongList(16);

    // record_param_comms CPU ops.
    final LongList rpcTs = new LongList(64);
    final LongList rpcEnd = new LongList(64);
    final LongList rpcTid = new LongList(64);
    final LongList rpcExternalId = new LongList(64);
    final List<CollectiveArgs> rpcArgs = new ArrayList<>();

    // c10d::* CPU ops (enqueue times) and nccl:*-style annotations (collective type for old traces).
    final ThreadTimeline c10dOps = new ThreadTimeline();
    final LongList c10dTs = new LongList(64);
    final ThreadTimeline commAnnotations = new ThreadTimeline();
    final List<String> commAnnotationNames = new ArrayList<>();

    // User annotation ranges (record_function labels), relative times: GPU-side ranges with their
    // (device pid, stream), and host ranges with their thread, used only when there are no GPU ones.
    final LongList gpuAnnotationDevice = new LongList(16);
    final LongList gpuAnnotationStream = new LongList(16);
    final LongList gpuAnnotationStart = new LongList(16);
    final LongList gpuAnnotationEnd = new LongList(16);
    final List<String> gpuAnnotationNames = new ArrayList<>();
    final LongList hostAnnotationStart = new LongList(16);
    final LongList hostAnnotationEnd = new LongList(16);
    final LongList hostAnnotationTid = new LongList(16);
    final List<String> hostAnnotationNames = new ArrayList<>();
    /** Host ops and annotations other than steps, outermost per thread (metrics.md §11). */
    final HostRangeCollector hostRanges = new HostRangeCollector();
    private final Map<String, String> annotationNames = new HashMap<>();

    /** Step, optimizer and backward spans, relative times, in columns: built as records once, shifted by the base. */
    final HostSpanColumns hostSpans = new HostSpanColumns();
    private final Map<String, String> spanNames = new HashMap<>();

    // thread_name metadata: (pid, tid, name) rows, filtered to host threads at the end.
    final LongList threadPid = new LongList(64);
    final LongList threadTid = new LongList(64);
    final List<String> threadNames = new ArrayList<>();

    /** Device allocator samples ({@code [memory]} instants of CUDA devices), relative times. */
    final io.overlapanalyze.model.MemorySamples memory = new io.overlapanalyze.model.MemorySamples();

    boolean hostOpsPresent;
    long emptyEvents;
    long maxTsNs = Long.MIN_VALUE;

    TraceCollector(KernelClassifier classifier, Warnings warnings) {
        this.classifier = classifier;
        this.warnings = warnings;
    }

    /**
     * Whether {@link #accept} can use anything in an event's {@code args}, judged from the fields
     * read before them (Kineto writes ph, cat and name before args; any of them still unknown
     * means yes). The reader skips the args of every other event without decoding them: most
     * events of a big trace are flows, python_function, user annotations and CPU ops that use
     * none. <b>Keep in step with {@code accept}</b>: a new use of args needs its events here.
     */
    static boolean usesArgs(String ph, String cat, String name) {
        if (ph == null) {
            return true;
        }
        if ("M".equals(ph)) {
            return true; // thread_name
        }
        if ("i".equals(ph) || "I".equals(ph)) {
            return name == null || "[memory]".equals(name); // allocator samples
        }
        if (!"X".equals(ph)) {
            return false; // flows, counters are not kept
        }
        if (cat == null) {
            return true;
        }
        if (KernelClassifier.isDeviceCategory(cat) || KernelClassifier.isRuntimeCategory(cat)
                || GPU_USER_ANNOTATION.equals(cat)) {
            return true; // a GPU annotation's stream is in its args
        }
        // record_param_comms carries the collective args; other CPU ops use none.
        if ("cpu_op".equals(cat)) {
            return name == null || "record_param_comms".equals(name);
        }
        // A category of no known kind: its correlation says whether it looks like device work.
        return !KernelClassifier.isKnownHostCategory(cat);
    }

    /**
     * Whether {@link #accept} would do nothing at all with {@code e} (flows, counters, Python
     * frames...): the parallel reader then keeps no copy of it. <b>Keep in step with
     * {@code accept}</b>.
     */
    static boolean ignores(EventHolder e) {
        if (e.fieldCount == 0 || e.ph == null) {
            return false;
        }
        if ("M".equals(e.ph) || "i".equals(e.ph) || "I".equals(e.ph)) {
            return false;
        }
        if (!"X".equals(e.ph) || e.cat == null) {
            return true;
        }
        return !KernelClassifier.isDeviceCategory(e.cat) && !KernelClassifier.isRuntimeCategory(e.cat)
                && !"cpu_op".equals(e.cat) && !"user_annotation".equals(e.cat)
                && !GPU_USER_ANNOTATION.equals(e.cat) && KernelClassifier.isKnownHostCategory(e.cat);
    }

    /** Takes one complete event; {@code eventNumber} is 1-based, for messages. */
    void accept(EventHolder e, long eventNumber) {
        if (e.fieldCount == 0) {
            emptyEvents++; // stray "{}" (seen at the end of some traces): nothing to keep
            return;
        }
        if ("M".equals(e.ph)) {
            metadata(e);
            return;
        }
        if ("i".equals(e.ph) || "I".equals(e.ph)) {
            memoryInstant(e);
            return;
        }
        if (!"X".equals(e.ph) || e.cat == null) {
            return; // flows, counters: not needed
        }
        DeviceKind kind = KernelClassifier.isDeviceCategory(e.cat) ? kindOf(e.cat, e.name) : null;
        if (kind != null) {
            deviceEvent(e, kind, eventNumber);
        } else if (KernelClassifier.isRuntimeCategory(e.cat)) {
            runtimeEvent(e, eventNumber);
        } else if ("cpu_op".equals(e.cat) || "user_annotation".equals(e.cat)) {
            hostOp(e, eventNumber);
        } else if (GPU_USER_ANNOTATION.equals(e.cat)) {
            gpuAnnotation(e, eventNumber);
        } else if (e.correlation != NONE && e.pidIsNumber && !KernelClassifier.isKnownHostCategory(e.cat)) {
            // Launch-correlated events of a category this reader does not know: maybe the device
            // work of an accelerator it does not read. Said, not silently dropped.
            warnings.add("events of an unknown category with launch correlation ids not analysed (device work of an"
                    + " accelerator this reader does not know?)", "category \"" + e.cat + "\"");
        }
    }

    /**
     * The classifier's kind, decided once per (category, name): kernel names repeat millions of
     * times and the comm-pattern test lower-cases the name. Per reader session, so that a
     * classifier shared between threads holds no mutable state.
     */
    private DeviceKind kindOf(String cat, String name) {
        Map<String, DeviceKind> cache;
        if (name == null) {
            return classifier.kindOf(cat, name);
        } else if (KernelClassifier.isKernelCategory(cat)) {
            cache = kernelKinds;
        } else if (KernelClassifier.MTIA_DEVICE.equals(cat)) {
            cache = mtiaKinds; // a name means something else there: a separate cache
        } else {
            return classifier.kindOf(cat, name);
        }
        DeviceKind k = cache.get(name);
        if (k == null) {
            k = classifier.kindOf(cat, name);
            if (cache.size() < 65_536) {
                cache.put(name, k);
            }
        }
        return k;
    }

    private void deviceEvent(EventHolder e, DeviceKind kind, long eventNumber) {
        if (!e.hasTs || !e.hasDur) {
            missingTime(e, eventNumber);
            return;
        }
        if (!e.pidIsNumber) {
            return; // string pid: a bookkeeping lane ("Spans", "Traces"), not a device
        }
        if (e.durNs < 0) {
            warnings.add("device events with a negative duration skipped", describe(e, eventNumber));
            return;
        }
        if (endOutOfRange(e, e.durNs, eventNumber)) {
            return;
        }
        long end = addTimes(e.tsNs, e.durNs);
        int lane;
        if (!e.hasArgs) {
            lane = lane(-1, -1); // no args at all: neither device nor stream is trustworthy
        } else {
            long stream = e.stream != NONE ? e.stream : (e.tidIsNumber ? e.tid : -1);
            lane = lane(e.pid, stream);
            devicePids.add(e.pid);
        }
        // Kernels (the only device events that can be COMM or belong to a collective op): CUDA's
        // kernel category, and the compute work of accelerators that name their events by kind.
        boolean isKernel = kind == DeviceKind.COMPUTE || kind == DeviceKind.COMM;
        CollectiveArgs args = isKernel ? e.collectiveArgs() : null;
        if (args != null && args.collectiveName() != null) {
            kind = DeviceKind.COMM; // Kineto copies collective args only onto collective kernels
        }
        String name = e.name == null ? "(unnamed)" : e.name;
        int i = device.add(e.tsNs, end, lane, kind, name, Time.UNKNOWN, -1);
        devCorrelation.add(e.correlation);
        devExternalId.add(e.externalId);
        if (isKernel) {
            devIsKernel.set(i);
            device.setShape(i, e.gridX, e.gridY, e.gridZ, e.blockX, e.blockY, e.blockZ);
        }
        if (args != null) {
            kernelArgs.put(i, args);
        }
        if (kind == DeviceKind.SYNC && isStreamWait(e)) {
            waitLane.add(lane);
            waitTs.add(e.tsNs);
            waitCorrelation.add(e.correlation);
            waitOnStream.add(e.waitOnStream);
            waitRecordCorrelation.add(e.waitRecordCorrelation);
        }
        noteTs(e.tsNs);
    }

    /**
     * A {@code [memory]} allocator instant (kineto.md §3.3): kept only for {@code Device Type} 1
     * (CUDA) with a device id and a total; CPU allocations (type 0) are not device memory. Other
     * instants ("Record Window End", ...) carry nothing the analysis needs.
     */
    private void memoryInstant(EventHolder e) {
        if (!"[memory]".equals(e.name) || !e.hasTs || e.memDeviceType != CUDA_DEVICE_TYPE
                || e.memDeviceId == NONE || e.memDeviceId < 0 || e.memTotalAllocated == NONE) {
            return;
        }
        memory.add(e.tsNs, e.memTotalAllocated, (int) e.memDeviceId);
        noteTs(e.tsNs);
    }

    /** c10::DeviceType::CUDA as Kineto writes it in {@code [memory]} args. */
    static final long CUDA_DEVICE_TYPE = 1;

    /** A {@code cuda_sync} event of kind "Stream Wait Event" (by {@code cuda_sync_kind}, else by name). */
    private static boolean isStreamWait(EventHolder e) {
        String kind = e.syncKind != null ? e.syncKind : e.name;
        return "Stream Wait Event".equals(kind);
    }

    private void runtimeEvent(EventHolder e, long eventNumber) {
        hostOpsPresent = true;
        if (!e.hasTs) {
            missingTime(e, eventNumber);
            return;
        }
        if (e.correlation == NONE) {
            return;
        }
        int row = rtCorrelation.size();
        rtCorrelation.add(e.correlation);
        rtTs.add(e.tsNs);
        rtTid.add(hostTid(e));
        rtExternalId.add(e.externalId);
        if (KernelClassifier.launchesDeviceWork(e.name)) {
            rtLaunches.set(row);
        }
        noteTs(e.tsNs);
    }

    private void hostOp(EventHolder e, long eventNumber) {
        hostOpsPresent = true;
        if (e.name == null) {
            return;
        }
        if (!e.hasTs || !e.hasDur) {
            missingTime(e, eventNumber);
            return;
        }
        long start = e.tsNs;
        if (endOutOfRange(e, Math.max(0, e.durNs), eventNumber)) {
            return;
        }
        long end = addTimes(start, Math.max(0, e.durNs));
        long tid = hostTid(e);
        String name = e.name;
        boolean cpuOp = "cpu_op".equals(e.cat);
        if (cpuOp && "record_param_comms".equals(name)) {
            rpcTs.add(start);
            rpcEnd.add(end);
            rpcTid.add(tid);
            rpcExternalId.add(e.externalId);
            rpcArgs.add(e.collectiveArgs());
        } else if (cpuOp && name.startsWith("c10d::")) {
            c10dOps.add(tid, start, end, c10dTs.size());
            c10dTs.add(start);
        } else if (!cpuOp && COMM_ANNOTATION.matcher(name).matches()) {
            commAnnotations.add(tid, start, end, commAnnotationNames.size());
            commAnnotationNames.add(name);
        } else if (!cpuOp && isUserAnnotation(name)) {
            hostAnnotationStart.add(start);
            hostAnnotationEnd.add(end);
            hostAnnotationTid.add(tid);
            hostAnnotationNames.add(annotationNames.computeIfAbsent(name, n -> n));
        }
        HostSpanKind kind = spanKind(cpuOp, name);
        if (kind != HostSpanKind.STEP) {
            hostRanges.add(tid, start, end, spanNames.computeIfAbsent(name, n -> n)); // metrics.md §11
        }
        if (kind != null) {
            hostSpans.add(kind, spanNames.computeIfAbsent(name, n -> n), start, end, tid);
        }
        noteTs(start);
    }

    /**
     * Host spans as columns until the file's time base is known: a 1 GB trace has ~400,000 backward
     * spans, which as records were made twice (relative, then shifted by the base) at the reader's
     * peak of memory.
     */
    static final class HostSpanColumns {
        private static final HostSpanKind[] KINDS = HostSpanKind.values();
        private final LongList start = new LongList(64);
        private final LongList end = new LongList(64);
        private final LongList thread = new LongList(64);
        private final List<String> names = new ArrayList<>();
        private byte[] kinds = new byte[64];

        void add(HostSpanKind kind, String name, long startNs, long endNs, long threadId) {
            int i = names.size();
            if (i == kinds.length) {
                kinds = java.util.Arrays.copyOf(kinds, i * 2);
            }
            kinds[i] = (byte) kind.ordinal();
            names.add(name);
            start.add(startNs);
            end.add(endNs);
            thread.add(threadId);
        }

        int size() {
            return names.size();
        }

        long start(int i) {
            return start.get(i);
        }

        long end(int i) {
            return end.get(i);
        }

        /** The spans as records, {@code base} added to their times. */
        List<HostSpan> toSpans(long base) {
            List<HostSpan> out = new ArrayList<>(names.size());
            for (int i = 0; i < names.size(); i++) {
                out.add(new HostSpan(KINDS[kinds[i]], names.get(i), start.get(i) + base, end.get(i) + base, thread.get(i)));
            }
            return out;
        }
    }

    static final String GPU_USER_ANNOTATION = "gpu_user_annotation";

    /**
     * A {@code record_function} label the micro-batch overlap reports: not a step boundary
     * ({@code ProfilerStep#N}, which ROCm also writes as a short GPU mark) and not a collective's
     * own label ({@code nccl:all_reduce}: that is the communication itself, not a user's range).
     */
    static boolean isUserAnnotation(String name) {
        return !(name.contains("ProfilerStep") && STEP.matcher(name).find()) && !COMM_ANNOTATION.matcher(name).matches();
    }

    /** A GPU-side user annotation: a range in device time on the stream its kernels ran on. */
    private void gpuAnnotation(EventHolder e, long eventNumber) {
        if (e.name == null || !e.pidIsNumber || !isUserAnnotation(e.name)) {
            return;
        }
        if (!e.hasTs || !e.hasDur) {
            missingTime(e, eventNumber);
            return;
        }
        if (e.durNs < 0) {
            warnings.add("GPU user annotations with a negative duration skipped", describe(e, eventNumber));
            return;
        }
        if (endOutOfRange(e, e.durNs, eventNumber)) {
            return;
        }
        long stream = e.stream != NONE ? e.stream : (e.tidIsNumber ? e.tid : -1);
        gpuAnnotationDevice.add(e.pid);
        gpuAnnotationStream.add(stream);
        gpuAnnotationStart.add(e.tsNs);
        gpuAnnotationEnd.add(addTimes(e.tsNs, e.durNs));
        gpuAnnotationNames.add(annotationNames.computeIfAbsent(e.name, n -> n));
        noteTs(e.tsNs);
    }

    /** STEP, OPTIMIZER or BACKWARD for the names metrics.md §2 names; {@code null} otherwise. */
    static HostSpanKind spanKind(boolean cpuOp, String name) {
        if (name.contains("ProfilerStep") && STEP.matcher(name).find()) {
            return HostSpanKind.STEP;
        }
        if (name.startsWith("Optimizer.step#")) {
            return HostSpanKind.OPTIMIZER; // not Optimizer.zero_grad#...
        }
        if (cpuOp && (name.startsWith("autograd::engine::evaluate_function: ") || name.contains("Backward"))) {
            return HostSpanKind.BACKWARD;
        }
        return null;
    }

    private void metadata(EventHolder e) {
        if ("thread_name".equals(e.name) && e.pidIsNumber && e.tidIsNumber && e.argName != null) {
            threadPid.add(e.pid);
            threadTid.add(e.tid);
            threadNames.add(e.argName);
        }
    }

    private long lastLaneDev = Long.MIN_VALUE;
    private long lastLaneStream = Long.MIN_VALUE;
    private int lastLane = -1;

    private int lane(long dev, long stream) {
        // Consecutive device events are mostly on the same stream: skip the boxed-key lookup.
        if (lastLane >= 0 && dev == lastLaneDev && stream == lastLaneStream) {
            return lastLane;
        }
        lastLane = laneSlow(dev, stream);
        lastLaneDev = dev;
        lastLaneStream = stream;
        return lastLane;
    }

    private int laneSlow(long dev, long stream) {
        List<Long> key = List.of(dev, stream);
        Integer idx = laneIndex.get(key);
        if (idx == null) {
            idx = laneKeys.size();
            laneKeys.add(new long[] {dev, stream});
            laneIndex.put(key, idx);
        }
        return idx;
    }

    /** The index of the lane (device pid, stream) when some device event created it, else -1. */
    int existingLane(long dev, long stream) {
        Integer idx = laneIndex.get(List.of(dev, stream));
        return idx == null ? -1 : idx;
    }

    private static long hostTid(EventHolder e) {
        return e.tidIsNumber ? e.tid : -1;
    }

    private void noteTs(long ts) {
        if (ts > maxTsNs) {
            maxTsNs = ts;
        }
    }

    private void missingTime(EventHolder e, long eventNumber) {
        if (e.timeOutOfRange) {
            outOfRange(e, eventNumber);
            return;
        }
        warnings.add("events without \"ts\" or \"dur\" skipped", describe(e, eventNumber));
    }

    /** An event whose start or end lies beyond 64-bit nanoseconds: skipped and counted, the rest read. */
    private void outOfRange(EventHolder e, long eventNumber) {
        warnings.add("events with a time beyond what nanoseconds hold in 64 bits (after the year 2262; not a "
                + "profiler time) skipped", describe(e, eventNumber));
    }

    /** True when {@code ts + dur} leaves the long range (then the event was warned about as out of range). */
    private boolean endOutOfRange(EventHolder e, long dur, long eventNumber) {
        long end = e.tsNs + dur;
        if (((e.tsNs ^ end) & (dur ^ end)) < 0) {
            outOfRange(e, eventNumber);
            return true;
        }
        return false;
    }

    private static String describe(EventHolder e, long eventNumber) {
        String n = e.name == null ? "" : e.name;
        if (n.length() > 60) {
            n = n.substring(0, 60) + "...";
        }
        return "event " + eventNumber + " (" + e.cat + " \"" + n + "\")";
    }

    private static long addTimes(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException ex) {
            throw new BadTraceException("\"ts\" + \"dur\" is out of range");
        }
    }
}
