package io.overlapanalyze.synth;

import static io.overlapanalyze.synth.TimelinePlanner.COLL_DUR;
import static io.overlapanalyze.synth.TimelinePlanner.COLL_LAUNCH_DUR;
import static io.overlapanalyze.synth.TimelinePlanner.LAUNCH_DUR;
import static io.overlapanalyze.synth.TimelinePlanner.NEST;

import io.overlapanalyze.synth.SyntheticTimeline.KernelOp;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedAnnotation;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedKernel;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedReduction;
import io.overlapanalyze.synth.SyntheticTimeline.PlannedStep;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@link SyntheticTimeline} → the Kineto event list: names, categories, threads, nesting and the
 * id links (External id, correlation) of a recent PyTorch trace (docs/formats/kineto.md §3–§6).
 * Ids are assigned here, in emission order, so the same scenario always gives the same file.
 */
final class TraceEventBuilder {
    static final int BASE_PID = 4242;
    /** Offset of the autograd thread's tid from the pid (any distinct OS tid would do). */
    static final int AUTOGRAD_TID_OFFSET = 48;
    static final int COMPUTE_STREAM = 7;
    static final int COMM_STREAM = 20;
    static final String NCCL_KERNEL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String PROCESS_NAME = "python3.10";
    /** cbid of cudaLaunchKernel_v7000 in CUPTI. */
    static final int CBID_LAUNCH_KERNEL = 211;
    /** cbids of cudaEventRecord_v3020 and cudaStreamWaitEvent_v3020 in CUPTI. */
    static final int CBID_EVENT_RECORD = 135;
    static final int CBID_STREAM_WAIT_EVENT = 147;
    /** Host offset of cudaStreamWaitEvent inside c10d::allreduce_ (before the NCCL launch at +10 µs). */
    static final long WAIT_CALL_OFFSET = 6_000;
    static final long SYNC_CALL_DUR = 1_000;
    /** First CUDA event id handed out (any id would do; real ones are small integers). */
    static final int FIRST_CUDA_EVENT_ID = 19;

    /** One Chrome-trace event; {@code dur < 0} means none, {@code id} is for flow events. */
    record TraceEvent(String ph, String cat, String name, Object pid, Object tid, long ts, long dur, Long id,
            Map<String, Object> args) {
    }

    private final Scenario s;
    private final int pid;
    private final int mainTid;
    private final int autogradTid;
    private final int device;
    private final String ranks;
    /** What each all-reduce slot is written as; the default is the single-rank all-reduce. */
    private final CollectiveSpec.Source specs;
    private int nextExternalId = 1;
    private int nextCorrelation = 1000;
    private int nextCudaEvent = FIRST_CUDA_EVENT_ID;
    /** syncEvents: backward block index → (cudaEventRecord correlation, CUDA event id) of this step. */
    private final Map<Integer, int[]> recordOfBlock = new HashMap<>();

    private final List<TraceEvent> host = new ArrayList<>();
    private final List<TraceEvent> gpu = new ArrayList<>();
    private final List<TraceEvent> flows = new ArrayList<>();

    TraceEventBuilder(Scenario s) {
        this(s, CollectiveSpec.Source.DEFAULT);
    }

    /** A job's rank: {@code specs} says which collective each bucket slot issues (type, sizes, dtype, Seq). */
    TraceEventBuilder(Scenario s, CollectiveSpec.Source specs) {
        this.s = s;
        this.specs = specs;
        this.pid = BASE_PID + s.rank();
        this.mainTid = pid;
        this.autogradTid = pid + AUTOGRAD_TID_OFFSET;
        this.device = s.rank(); // one GPU per rank, device index = local rank
        this.ranks = IntStream.range(0, s.worldSize()).mapToObj(Integer::toString)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    int device() {
        return device;
    }

    int pid() {
        return pid;
    }

    /** Receives events in file order (may throw, e.g. from a JSON generator). */
    interface Sink {
        void accept(TraceEvent e) throws IOException;
    }

    /** Host and device events are each sorted by start; parents first on equal starts (longer first). */
    private static final Comparator<TraceEvent> BY_START = Comparator.comparingLong(TraceEvent::ts)
            .thenComparing(Comparator.comparingLong(TraceEvent::dur).reversed());

    /** Which of the three per-step event lists a pass emits. */
    private enum Part { HOST, GPU, FLOWS }

    /** All events: metadata, host events by start, device events by start, flows, the window end. */
    List<TraceEvent> build(SyntheticTimeline timeline) {
        List<TraceEvent> all = new ArrayList<>();
        try {
            stream(timeline, all::add);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a list does not throw
        }
        return all;
    }

    /**
     * The same events as {@link #build}, in the same order, handed to {@code out} without holding
     * the whole trace: a 1 GB trace is millions of events, each with an args map. The file lists
     * all host events (sorted), then all device events (sorted), then all flows, so the steps are
     * generated once per part (ids are assigned in generation order, so every pass regenerates the
     * same events). A sorted part is merged step by step: events are held only until no later step
     * can have an earlier start (the minimum start of every later step is known from a first,
     * counting pass), which keeps the global stable sort's order exactly.
     */
    void stream(SyntheticTimeline timeline, Sink out) throws IOException {
        List<PlannedStep> steps = timeline.steps();
        long origin = steps.get(0).hostStart();
        long last = steps.stream().mapToLong(p -> Math.max(p.hostEnd(), p.deviceEnd())).max().orElse(origin);
        // Suffix minima of each step's earliest host / device start: the flush bounds of the merge.
        long[] hostBound = new long[steps.size() + 1];
        long[] gpuBound = new long[steps.size() + 1];
        hostBound[steps.size()] = Long.MAX_VALUE;
        gpuBound[steps.size()] = Long.MAX_VALUE;
        reset();
        long[] hostMin = new long[steps.size()];
        long[] gpuMin = new long[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            step(steps.get(i));
            hostMin[i] = host.stream().mapToLong(TraceEvent::ts).min().orElse(Long.MAX_VALUE);
            gpuMin[i] = gpu.stream().mapToLong(TraceEvent::ts).min().orElse(Long.MAX_VALUE);
            clearStep();
        }
        for (int i = steps.size() - 1; i >= 0; i--) {
            hostBound[i] = Math.min(hostMin[i], hostBound[i + 1]);
            gpuBound[i] = Math.min(gpuMin[i], gpuBound[i + 1]);
        }
        for (TraceEvent m : metadata(origin)) {
            out.accept(m);
        }
        emit(steps, Part.HOST, hostBound, out);
        emit(steps, Part.GPU, gpuBound, out);
        emit(steps, Part.FLOWS, null, out);
        // Kineto ends the array with this global instant (string pid/tid, as written by Kineto).
        out.accept(new TraceEvent("i", null, "Record Window End", "", "", last + 10_000, -1, null, null));
    }

    /** One pass over all steps, emitting one part; sorted (merged) when {@code bound} is given. */
    private void emit(List<PlannedStep> steps, Part part, long[] bound, Sink out) throws IOException {
        reset();
        List<TraceEvent> pending = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            step(steps.get(i));
            List<TraceEvent> mine = part == Part.HOST ? host : part == Part.GPU ? gpu : flows;
            if (bound == null) {
                for (TraceEvent e : mine) {
                    out.accept(e);
                }
                clearStep();
                continue;
            }
            pending.addAll(mine);
            clearStep();
            pending.sort(BY_START); // stable: equal keys keep generation order, as in one global sort
            long limit = bound[i + 1];
            int n = 0;
            while (n < pending.size() && pending.get(n).ts() < limit) {
                out.accept(pending.get(n++));
            }
            pending.subList(0, n).clear();
        }
        for (TraceEvent e : pending) {
            out.accept(e);
        }
    }

    /** Restarts id assignment, so that a pass regenerates exactly the events of the first. */
    private void reset() {
        nextExternalId = 1;
        nextCorrelation = 1000;
        nextCudaEvent = FIRST_CUDA_EVENT_ID;
        clearStep();
    }

    private void clearStep() {
        host.clear();
        gpu.clear();
        flows.clear();
    }

    private List<TraceEvent> metadata(long ts) {
        List<TraceEvent> m = new ArrayList<>();
        m.add(meta("process_name", pid, 0, ts, "name", PROCESS_NAME));
        m.add(meta("process_labels", pid, 0, ts, "labels", "CPU"));
        m.add(meta("process_sort_index", pid, 0, ts, "sort_index", pid));
        m.add(meta("thread_name", pid, mainTid, ts, "name", "thread " + mainTid + " (pt_main_thread)"));
        m.add(meta("thread_sort_index", pid, mainTid, ts, "sort_index", mainTid));
        m.add(meta("thread_name", pid, autogradTid, ts, "name", "thread " + autogradTid + " (pt_autograd_0)"));
        m.add(meta("thread_sort_index", pid, autogradTid, ts, "sort_index", autogradTid));
        m.add(meta("process_name", device, 0, ts, "name", PROCESS_NAME));
        m.add(meta("process_labels", device, 0, ts, "labels", "GPU " + device));
        m.add(meta("process_sort_index", device, 0, ts, "sort_index", 5000000 + device));
        for (int stream : new int[] {COMPUTE_STREAM, COMM_STREAM}) {
            m.add(meta("thread_name", device, stream, ts, "name", "stream " + stream + " "));
            m.add(meta("thread_sort_index", device, stream, ts, "sort_index", stream));
        }
        return m;
    }

    private static TraceEvent meta(String name, int pid, int tid, long ts, String key, Object value) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put(key, value);
        return new TraceEvent("M", null, name, pid, tid, ts, -1, null, args);
    }

    private void step(PlannedStep step) {
        recordOfBlock.clear();
        hostOp("user_annotation", "ProfilerStep#" + step.number(), mainTid, step.hostStart(), step.hostEnd());
        for (PlannedAnnotation a : step.annotations()) {
            hostOp("user_annotation", a.name(), mainTid, a.start(), a.end());
        }
        for (KernelOp op : step.mainOps()) {
            int ext = hostOp("cpu_op", op.name(), mainTid, op.start(), op.end());
            launches(op, ext, mainTid);
        }
        for (KernelOp op : step.autogradOps()) {
            // autograd::engine::evaluate_function: MmBackward0 ⊃ MmBackward0 ⊃ aten::mm ⊃ launches
            Map<String, Object> fnArgs = new LinkedHashMap<>();
            fnArgs.put("Fwd thread id", 1);
            hostOp("cpu_op", "autograd::engine::evaluate_function: " + op.name(), autogradTid, op.start(),
                    op.end(), fnArgs);
            hostOp("cpu_op", op.name(), autogradTid, op.start() + NEST, op.end() - NEST, fnArgs);
            int ext = hostOp("cpu_op", "aten::mm", autogradTid, op.start() + 2 * NEST, op.end() - 2 * NEST);
            launches(op, ext, autogradTid);
            int block = op.kernels().get(0).block();
            if (s.syncEvents() && s.backward().get(block).bucket() != null) {
                // The gradient hook marks the bucket ready: record an event on the compute stream
                // right after the block's last launch (ends before aten::mm's end at +8 µs).
                long lastLaunch = op.kernels().get(op.kernels().size() - 1).launch();
                int event = nextCudaEvent++;
                int corr = runtime("cudaEventRecord", CBID_EVENT_RECORD, autogradTid,
                        lastLaunch + LAUNCH_DUR + NEST, SYNC_CALL_DUR, ext);
                recordOfBlock.put(block, new int[] {corr, event});
            }
        }
        for (PlannedReduction r : step.reductions()) {
            reduction(r, specs.spec(s, step.number(), r));
        }
    }

    private void launches(KernelOp op, int ext, int tid) {
        for (PlannedKernel k : op.kernels()) {
            int corr = launch(tid, k.launch(), LAUNCH_DUR, ext);
            Map<String, Object> args = kernelArgs(ext, COMPUTE_STREAM, corr);
            args.put("registers per thread", 154);
            args.put("shared memory", 98304);
            args.put("grid", List.of(8, 16, 1));
            args.put("block", List.of(128, 1, 1));
            device(k.name(), COMPUTE_STREAM, k.start(), k.end(), corr, args);
        }
    }

    /** c10d::allreduce_ ⊃ record_param_comms ⊃ nccl:all_reduce ⊃ cudaLaunchKernel → NCCL kernel. */
    private void reduction(PlannedReduction r, CollectiveSpec spec) {
        long e = r.enqueue();
        hostOp("cpu_op", spec.c10dOp(), autogradTid, e, e + COLL_DUR);
        Map<String, Object> coll = collectiveArgs(spec);
        Map<String, Object> rpcArgs = new LinkedHashMap<>(coll);
        rpcArgs.put("Rank", s.rank());
        rpcArgs.put("Global rank start", 0);
        rpcArgs.put("Global rank stride", 1);
        int ext = hostOp("cpu_op", "record_param_comms", autogradTid, e + 2 * NEST, e + COLL_DUR - 2 * NEST,
                rpcArgs);
        hostOp("user_annotation", spec.annotation(), autogradTid, e + 4 * NEST, e + COLL_DUR - 6 * NEST);
        int[] record = recordOfBlock.get(r.block());
        if (s.syncEvents() && record != null) {
            streamWait(r, ext, record[0], record[1]);
        }
        // Kineto gives the launch and kernel the External id of record_param_comms (kineto.md §6).
        int corr = launch(autogradTid, r.launch(), COLL_LAUNCH_DUR, ext);
        Map<String, Object> args = kernelArgs(ext, COMM_STREAM, corr);
        args.put("registers per thread", 96);
        args.put("shared memory", 0);
        args.put("grid", List.of(2, 1, 1));
        args.put("block", List.of(544, 1, 1));
        args.putAll(coll); // newer Kineto copies the collective args onto the kernel
        device(spec.kernel(), COMM_STREAM, r.start(), r.end(), corr, args);
    }

    /**
     * cudaStreamWaitEvent inside the collective, before its NCCL launch, and the device-side
     * {@code cuda_sync} "Stream Wait Event" on the comm stream ending where the kernel starts
     * (args as pytorch/kineto writes them, kineto.md §4).
     */
    private void streamWait(PlannedReduction r, int ext, int recordCorr, int cudaEvent) {
        int corr = runtime("cudaStreamWaitEvent", CBID_STREAM_WAIT_EVENT, autogradTid,
                r.enqueue() + WAIT_CALL_OFFSET, SYNC_CALL_DUR, ext);
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", ext);
        args.put("cuda_sync_kind", "Stream Wait Event");
        args.put("wait_on_stream", COMPUTE_STREAM);
        args.put("wait_on_cuda_event_record_corr_id", recordCorr);
        args.put("wait_on_cuda_event_id", cudaEvent);
        args.put("stream", COMM_STREAM);
        args.put("correlation", corr);
        args.put("device", device);
        gpu.add(new TraceEvent("X", "cuda_sync", "Stream Wait Event", device, COMM_STREAM,
                r.start() - SYNC_CALL_DUR, SYNC_CALL_DUR, null, args));
    }

    private Map<String, Object> collectiveArgs(CollectiveSpec spec) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("Collective name", spec.collectiveName());
        a.put("In msg nelems", spec.inElements());
        a.put("Out msg nelems", spec.outElements());
        a.put("Group size", s.worldSize());
        a.put("dtype", spec.dtype());
        a.put("In split size", "[]");
        a.put("Out split size", "[]");
        a.put("Process Group Name", "0");
        a.put("Process Group Description", "default_pg");
        a.put("Process Group Ranks", ranks);
        if (spec.seq() >= 0) {
            a.put("Seq", spec.seq()); // newest Kineto (kineto.md §6); only jobs that ask for it
        }
        return a;
    }

    private Map<String, Object> kernelArgs(int ext, int stream, int corr) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("External id", ext);
        a.put("queued", 0);
        a.put("device", device);
        a.put("context", 1);
        a.put("stream", stream);
        a.put("correlation", corr);
        return a;
    }

    private int hostOp(String cat, String name, int tid, long start, long end) {
        return hostOp(cat, name, tid, start, end, Map.of());
    }

    /** A host span with a fresh External id (returned); {@code extra} args follow the ids. */
    private int hostOp(String cat, String name, int tid, long start, long end, Map<String, Object> extra) {
        int ext = nextExternalId++;
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", ext);
        args.put("Record function id", 0);
        args.put("Ev Idx", ext - 1);
        args.putAll(extra);
        host.add(new TraceEvent("X", cat, name, pid, tid, start, end - start, null, args));
        return ext;
    }

    /** cudaLaunchKernel with a fresh correlation (returned) and its ac2g flow start. */
    private int launch(int tid, long ts, long dur, int ext) {
        int corr = runtime("cudaLaunchKernel", CBID_LAUNCH_KERNEL, tid, ts, dur, ext);
        flows.add(new TraceEvent("s", "ac2g", "ac2g", pid, tid, ts, -1, (long) corr, null));
        return corr;
    }

    /** A cuda_runtime call with a fresh correlation (returned). */
    private int runtime(String name, int cbid, int tid, long ts, long dur, int ext) {
        int corr = nextCorrelation++;
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", ext);
        args.put("cbid", cbid);
        args.put("correlation", corr);
        host.add(new TraceEvent("X", "cuda_runtime", name, pid, tid, ts, dur, null, args));
        return corr;
    }

    private void device(String name, int stream, long start, long end, int corr, Map<String, Object> args) {
        gpu.add(new TraceEvent("X", "kernel", name, device, stream, start, end - start, null, args));
        flows.add(new TraceEvent("f", "ac2g", "ac2g", device, stream, start, -1, (long) corr, null));
    }
}
