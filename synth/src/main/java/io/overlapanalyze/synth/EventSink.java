package io.overlapanalyze.synth;

import io.overlapanalyze.synth.TraceEventBuilder.TraceEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Emits Kineto events for the parallelism scenarios ({@link ParallelScenario}): host ops, kernel
 * launches with their correlation/External-id links, collectives as PyTorch writes them
 * ({@code c10d::*} ⊃ {@code record_param_comms} ⊃ {@code nccl:*} ⊃ launch), {@code cuda_sync}
 * stream waits and {@code [memory]} allocator instants, in the same shapes as
 * {@link TraceEventBuilder} (kineto.md §3–§6). Ids are assigned in call order: the same plan
 * always gives the same file.
 */
final class EventSink {
    static final int BASE_PID = TraceEventBuilder.BASE_PID;
    static final int CBID_LAUNCH_KERNEL = TraceEventBuilder.CBID_LAUNCH_KERNEL;
    static final long US = 1_000L;

    /**
     * One collective as {@code record_param_comms} describes it.
     *
     * @param c10dOp         the enclosing {@code c10d::} op name
     * @param collectiveName Kineto's "Collective name" ({@code _allgather_base}, {@code send})
     * @param annotation     the {@code nccl:*} annotation
     * @param kernel         the NCCL kernel name
     */
    record Coll(String c10dOp, String collectiveName, String annotation, String kernel, long inElements,
            long outElements) {
    }

    final int pid;
    final int mainTid;
    final int autogradTid;
    final int device;
    private final int rank;
    private final int worldSize;
    private final String ranks;
    private final List<Integer> streams;
    private int nextExternalId = 1;
    private int nextCorrelation = 1000;
    private int nextCudaEvent = TraceEventBuilder.FIRST_CUDA_EVENT_ID;
    private final List<TraceEvent> host = new ArrayList<>();
    private final List<TraceEvent> gpu = new ArrayList<>();
    private final List<TraceEvent> flows = new ArrayList<>();

    EventSink(int rank, int worldSize, List<Integer> streams) {
        this.rank = rank;
        this.worldSize = worldSize;
        this.pid = BASE_PID + rank;
        this.mainTid = pid;
        this.autogradTid = pid + TraceEventBuilder.AUTOGRAD_TID_OFFSET;
        this.device = rank;
        this.streams = List.copyOf(streams);
        this.ranks = IntStream.range(0, worldSize).mapToObj(Integer::toString)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** A host span with a fresh External id (returned). */
    int hostOp(String cat, String name, int tid, long start, long end) {
        int ext = nextExternalId++;
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", ext);
        args.put("Record function id", 0);
        args.put("Ev Idx", ext - 1);
        host.add(new TraceEvent("X", cat, name, pid, tid, start, end - start, null, args));
        return ext;
    }

    /** {@code cudaLaunchKernel} at {@code launch} and its kernel {@code [start, end)} on {@code stream}. */
    void kernel(int tid, long launch, int ext, String name, int stream, long start, long end) {
        kernel(tid, launch, ext, name, stream, start, end, null, null);
    }

    /** As above, with the kernel's launch {@code grid} and {@code block} in its args when not {@code null}. */
    void kernel(int tid, long launch, int ext, String name, int stream, long start, long end, List<Integer> grid,
                List<Integer> block) {
        if (start < launch) {
            throw new IllegalStateException("kernel " + name + " starts before its launch");
        }
        int corr = runtime("cudaLaunchKernel", CBID_LAUNCH_KERNEL, tid, launch, 5 * US, ext);
        flows.add(new TraceEvent("s", "ac2g", "ac2g", pid, tid, launch, -1, (long) corr, null));
        Map<String, Object> args = kernelArgs(ext, stream, corr);
        if (grid != null) {
            args.put("grid", grid);
        }
        if (block != null) {
            args.put("block", block);
        }
        gpu.add(new TraceEvent("X", "kernel", name, device, stream, start, end - start, null, args));
        flows.add(new TraceEvent("f", "ac2g", "ac2g", device, stream, start, -1, (long) corr, null));
    }

    /**
     * A collective enqueued at host time {@code e} ({@code c10d::} op {@code [e, e+30 µs]}, launch at
     * {@code e+10 µs}) whose kernel runs {@code [start, end)} on {@code stream}.
     */
    void collective(int tid, long e, Coll c, int stream, long start, long end) {
        hostOp("cpu_op", c.c10dOp(), tid, e, e + 30 * US);
        Map<String, Object> coll = collArgs(c);
        int ext = nextExternalId++;
        Map<String, Object> rpc = new LinkedHashMap<>();
        rpc.put("External id", ext);
        rpc.put("Record function id", 0);
        rpc.put("Ev Idx", ext - 1);
        rpc.putAll(coll);
        rpc.put("Rank", rank);
        host.add(new TraceEvent("X", "cpu_op", "record_param_comms", pid, tid, e + 2 * US, 26 * US, null, rpc));
        hostOp("user_annotation", c.annotation(), tid, e + 4 * US, e + 24 * US);
        long launch = e + 10 * US;
        if (start < launch) {
            throw new IllegalStateException(c.collectiveName() + " starts before its launch");
        }
        int corr = runtime("cudaLaunchKernel", CBID_LAUNCH_KERNEL, tid, launch, 8 * US, ext);
        flows.add(new TraceEvent("s", "ac2g", "ac2g", pid, tid, launch, -1, (long) corr, null));
        Map<String, Object> args = kernelArgs(ext, stream, corr);
        args.putAll(coll);
        gpu.add(new TraceEvent("X", "kernel", c.kernel(), device, stream, start, end - start, null, args));
        flows.add(new TraceEvent("f", "ac2g", "ac2g", device, stream, start, -1, (long) corr, null));
    }

    /**
     * A {@code gpu_user_annotation} range on a device stream (a {@code record_function} range as
     * Kineto projects it onto the device work it launched); not device work itself.
     */
    void deviceAnnotation(String name, int stream, long start, long end) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", nextExternalId++);
        args.put("device", device);
        args.put("stream", stream);
        gpu.add(new TraceEvent("X", "gpu_user_annotation", name, device, stream, start, end - start, null, args));
    }

    /** {@code cudaEventRecord} at {@code ts}; returns {correlation, CUDA event id}. */
    int[] record(int tid, long ts) {
        int event = nextCudaEvent++;
        int corr = runtime("cudaEventRecord", TraceEventBuilder.CBID_EVENT_RECORD, tid, ts, US, 0);
        return new int[] {corr, event};
    }

    /**
     * {@code cudaStreamWaitEvent} at host {@code ts} making {@code waitingStream} wait for the
     * record {@code rec} made on {@code recordedStream}; the device-side {@code cuda_sync} row is
     * 1 µs long ending at {@code deviceEnd}.
     */
    void streamWait(int tid, long ts, int waitingStream, int recordedStream, int[] rec, long deviceEnd) {
        int corr = runtime("cudaStreamWaitEvent", TraceEventBuilder.CBID_STREAM_WAIT_EVENT, tid, ts, US, 0);
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("cuda_sync_kind", "Stream Wait Event");
        args.put("wait_on_stream", recordedStream);
        args.put("wait_on_cuda_event_record_corr_id", rec[0]);
        args.put("wait_on_cuda_event_id", rec[1]);
        args.put("stream", waitingStream);
        args.put("correlation", corr);
        args.put("device", device);
        gpu.add(new TraceEvent("X", "cuda_sync", "Stream Wait Event", device, waitingStream, deviceEnd - US, US, null,
                args));
    }

    /** A {@code [memory]} allocator instant of this rank's GPU (kineto.md §3.3). */
    void memory(int tid, long ts, long bytes, long totalAllocated, long totalReserved) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("Device Type", 1);
        args.put("Device Id", device);
        args.put("Addr", 139_926_520_725_504L + (ts / US % 1_000_000L) * 4096L);
        args.put("Bytes", bytes);
        args.put("Total Allocated", totalAllocated);
        args.put("Total Reserved", totalReserved);
        host.add(new TraceEvent("i", "cpu_instant_event", "[memory]", pid, tid, ts, -1, null, args));
    }

    private Map<String, Object> collArgs(Coll c) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("Collective name", c.collectiveName());
        a.put("In msg nelems", c.inElements());
        a.put("Out msg nelems", c.outElements());
        a.put("Group size", worldSize);
        a.put("dtype", "Float");
        a.put("In split size", "[]");
        a.put("Out split size", "[]");
        a.put("Process Group Name", "0");
        a.put("Process Group Description", "default_pg");
        a.put("Process Group Ranks", ranks);
        return a;
    }

    private Map<String, Object> kernelArgs(int ext, int stream, int corr) {
        Map<String, Object> a = new LinkedHashMap<>();
        if (ext > 0) {
            a.put("External id", ext);
        }
        a.put("queued", 0);
        a.put("device", device);
        a.put("context", 1);
        a.put("stream", stream);
        a.put("correlation", corr);
        return a;
    }

    private int runtime(String name, int cbid, int tid, long ts, long dur, int ext) {
        int corr = nextCorrelation++;
        Map<String, Object> args = new LinkedHashMap<>();
        if (ext > 0) {
            args.put("External id", ext);
        }
        args.put("cbid", cbid);
        args.put("correlation", corr);
        host.add(new TraceEvent("X", "cuda_runtime", name, pid, tid, ts, dur, null, args));
        return corr;
    }

    /** Metadata, host events by start, device events by start, flows, the window end. */
    List<TraceEvent> build() {
        Comparator<TraceEvent> byStart = Comparator.comparingLong(TraceEvent::ts)
                .thenComparing(Comparator.comparingLong(TraceEvent::dur).reversed());
        host.sort(byStart);
        gpu.sort(byStart);
        long origin = host.isEmpty() ? 0 : host.get(0).ts();
        long last = origin;
        for (TraceEvent e : host) {
            last = Math.max(last, e.ts() + Math.max(0, e.dur()));
        }
        for (TraceEvent e : gpu) {
            last = Math.max(last, e.ts() + e.dur());
        }
        List<TraceEvent> all = new ArrayList<>();
        all.add(meta("process_name", pid, 0, origin, "name", TraceEventBuilder.PROCESS_NAME));
        all.add(meta("process_labels", pid, 0, origin, "labels", "CPU"));
        all.add(meta("thread_name", pid, mainTid, origin, "name", "thread " + mainTid + " (pt_main_thread)"));
        all.add(meta("thread_name", pid, autogradTid, origin, "name", "thread " + autogradTid + " (pt_autograd_0)"));
        all.add(meta("process_name", device, 0, origin, "name", TraceEventBuilder.PROCESS_NAME));
        all.add(meta("process_labels", device, 0, origin, "labels", "GPU " + device));
        for (int stream : streams) {
            all.add(meta("thread_name", device, stream, origin, "name", "stream " + stream + " "));
        }
        all.addAll(host);
        all.addAll(gpu);
        all.addAll(flows);
        all.add(new TraceEvent("i", null, "Record Window End", "", "", last + 10 * US, -1, null, null));
        return all;
    }

    private static TraceEvent meta(String name, int pid, int tid, long ts, String key, Object value) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put(key, value);
        return new TraceEvent("M", null, name, pid, tid, ts, -1, null, args);
    }
}
