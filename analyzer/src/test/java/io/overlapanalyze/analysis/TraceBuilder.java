package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.HostThread;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.MemorySamples;
import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StreamWait;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.model.TraceFormat;

import java.util.ArrayList;
import java.util.List;

/** Builds {@link RankTrace}s by hand for analysis tests. Times are absolute ns. */
final class TraceBuilder {
    static final long MS = 1_000_000L;
    static final long US = 1_000L;
    /** A realistic non-zero epoch origin (2023-11 in ns) to prove nothing assumes time 0. */
    static final long ORIGIN = 1_700_000_000_000_000_000L;

    private final DeviceIntervals device = new DeviceIntervals(new StringPool());
    private final List<Lane> lanes = new ArrayList<>();
    private final List<HostSpan> spans = new ArrayList<>();
    private final List<HostThread> threads = new ArrayList<>();
    private final List<Collective> collectives = new ArrayList<>();
    private final List<Long> unmatched = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<StreamWait> streamWaits = new ArrayList<>();
    private final List<io.overlapanalyze.model.Annotation> annotations = new ArrayList<>();
    private boolean hostOps = true;
    private boolean truncated;
    private TraceFormat format = TraceFormat.KINETO;

    int lane(String label) {
        int index = lanes.size();
        lanes.add(new Lane(index, 0, index + 7, label));
        return index;
    }

    TraceBuilder thread(long id, boolean autograd) {
        threads.add(new HostThread(id, List.of(autograd ? "pt_autograd_0" : "python"), autograd));
        return this;
    }

    TraceBuilder span(HostSpanKind kind, String name, long start, long end, long thread) {
        spans.add(new HostSpan(kind, name, start, end, thread));
        return this;
    }

    int kernel(long start, long end, int lane, DeviceKind kind, String name, long launchNs, long launchThread) {
        return device.add(start, end, lane, kind, name, launchNs, launchThread);
    }

    int compute(long start, long end, int lane, long launchNs, long launchThread) {
        return kernel(start, end, lane, DeviceKind.COMPUTE, "gemm", launchNs, launchThread);
    }

    /** A collective with one COMM kernel. */
    int collective(CollectiveType type, long bytes, long enqueueNs, long thread, long start, long end, int lane,
                   long kernelLaunchNs) {
        int kernel = device.add(start, end, lane, DeviceKind.COMM, "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                kernelLaunchNs, thread);
        int id = collectives.size();
        collectives.add(new Collective(id, type, "nccl:all_reduce", null, -1, -1, -1, "Float", bytes, enqueueNs,
                thread, new int[] {kernel}));
        device.setCollective(kernel, id);
        return id;
    }

    /** A stream wait submitted at {@code submitNs} (also its drawn time) on an event recorded at {@code recordHostNs}. */
    TraceBuilder streamWait(int waitingLane, long submitNs, int recordedLane, long recordHostNs) {
        streamWaits.add(new StreamWait(waitingLane, submitNs, submitNs, recordedLane, recordHostNs));
        return this;
    }

    /** Marks interval {@code i} as launched before the capture (as a reader would). */
    TraceBuilder preCapture(int i) {
        device.markPreCapture(i);
        return this;
    }

    TraceBuilder unmatchedLaunch(long t) {
        unmatched.add(t);
        return this;
    }

    /** A user annotation range, on a device lane or on the host (see {@link io.overlapanalyze.model.Annotation}). */
    TraceBuilder annotation(io.overlapanalyze.model.Annotation a) {
        annotations.add(a);
        return this;
    }

    TraceBuilder hostOps(boolean present) {
        hostOps = present;
        return this;
    }

    TraceBuilder truncated(boolean t) {
        truncated = t;
        return this;
    }

    /** The format the trace says it was read from (Kineto unless set). */
    TraceBuilder format(TraceFormat f) {
        format = f;
        return this;
    }

    TraceBuilder warning(String w) {
        warnings.add(w);
        return this;
    }

    RankTrace build() {
        List<HostSpan> sorted = new ArrayList<>(spans);
        sorted.sort((a, b) -> Long.compare(a.startNs(), b.startNs()));
        long[] um = unmatched.stream().mapToLong(Long::longValue).toArray();
        return new RankTrace("test.json", format, 0, RankSource.TRACE, 2, lanes, device, sorted, threads,
                collectives, List.of(), um, hostOps, truncated, warnings, streamWaits, List.of(), MemorySamples.empty(), null,
                annotations);
    }

    // ---- the seed's worked examples (metrics.md §7) ----

    static final long MAIN = 1;
    static final long AUTOGRAD = 2;

    /**
     * Three 2 ms backward blocks [0,2] [2,4] [4,6] ms after {@link #ORIGIN}, one bucket all-reduced
     * after each, issued on time, each taking {@code commMs}; a STEP span and an OPTIMIZER span;
     * optionally an optimizer kernel of {@code optimizerKernelNs} right after the last reduction.
     *
     * @param hostInfo false: no host ops, no launch links, no enqueue times (an Nsight export
     *                 without NVTX)
     */
    static RankTrace seed(long commMs, long optimizerKernelNs, boolean hostInfo) {
        TraceBuilder b = new TraceBuilder();
        int computeLane = b.lane("stream 7");
        int commLane = b.lane("stream 13");
        if (hostInfo) {
            b.thread(MAIN, false).thread(AUTOGRAD, true);
            b.span(HostSpanKind.STEP, "ProfilerStep#3", ORIGIN - 5 * MS, ORIGIN + 20 * MS, MAIN);
            // The host runs ahead of the device: the optimizer step is issued before the device ends.
            b.span(HostSpanKind.OPTIMIZER, "Optimizer.step#SGD.step", ORIGIN - 1 * MS, ORIGIN - MS / 2, MAIN);
        } else {
            b.hostOps(false);
        }
        long previousCommEnd = Long.MIN_VALUE;
        for (int k = 0; k < 3; k++) {
            long blockLaunch = ORIGIN - 3 * MS + k * 200 * US;
            long enqueue = blockLaunch + 100 * US; // after its block's launch, before the next block's
            b.compute(ORIGIN + 2 * k * MS, ORIGIN + 2 * (k + 1) * MS, computeLane,
                    hostInfo ? blockLaunch : Time.UNKNOWN, hostInfo ? AUTOGRAD : -1);
            long start = Math.max(ORIGIN + 2 * (k + 1) * MS, previousCommEnd);
            long end = start + commMs * MS;
            b.collective(CollectiveType.ALL_REDUCE, 25L << 20, hostInfo ? enqueue : Time.UNKNOWN,
                    hostInfo ? AUTOGRAD : -1, start, end, commLane, hostInfo ? enqueue + 10 * US : Time.UNKNOWN);
            previousCommEnd = end;
        }
        if (optimizerKernelNs > 0) {
            b.kernel(previousCommEnd, previousCommEnd + optimizerKernelNs, computeLane, DeviceKind.COMPUTE,
                    "multi_tensor_apply_kernel", hostInfo ? ORIGIN - 3 * MS / 4 : Time.UNKNOWN, hostInfo ? MAIN : -1);
        }
        return b.build();
    }
}
