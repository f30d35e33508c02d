package io.overlapanalyze.synth;

import static io.overlapanalyze.synth.EventSink.US;

import io.overlapanalyze.synth.ParallelScenario.Fsdp;
import io.overlapanalyze.synth.ParallelScenario.Layer;
import java.util.List;

/**
 * {@link Fsdp} → Kineto events, following the device semantics written in
 * {@link ParallelScenario}. The host issues each layer's work {@link #LEAD} before the device
 * reaches it (FSDP's rate limiter keeps the CPU close to the GPU), so every host time follows from
 * the device timeline.
 */
final class FsdpPlanner {
    static final int COMPUTE = 7;
    static final int AG_STREAM = 20;
    static final int RS_STREAM = 24;
    static final long LEAD = 100 * US;
    static final long BASELINE_BYTES = 2L * 1024 * 1024 * 1024;
    static final String AG_KERNEL = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String RS_KERNEL = "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String FWD_KERNEL = TimelinePlanner.FWD_KERNEL;
    static final String BWD_KERNEL = TimelinePlanner.BWD_KERNEL;
    static final String INPUT_KERNEL = "void at::native::(anonymous namespace)::indexSelectLargeIndex<float, long, "
            + "unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<float, unsigned int>, "
            + "at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<long, unsigned int>, "
            + "int, int, unsigned int, unsigned int, long)";
    static final String HEAD_KERNEL = "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, "
            + "float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)";

    private final Fsdp s;
    private final EventSink out;
    private long allocated = BASELINE_BYTES;

    private FsdpPlanner(Fsdp s, EventSink out) {
        this.s = s;
        this.out = out;
    }

    static EventSink emit(Fsdp s) {
        EventSink sink = new EventSink(s.common().rank(), s.common().worldSize(), List.of(COMPUTE, AG_STREAM, RS_STREAM));
        FsdpPlanner p = new FsdpPlanner(s, sink);
        long t0 = TimelinePlanner.TRACE_ORIGIN_NS + 200 * US;
        for (int i = 0; i < s.common().steps(); i++) {
            long end = p.step(s.common().firstStep() + i, t0);
            t0 = end + Math.max(s.common().stepGapNs(), 3 * LEAD);
        }
        return sink;
    }

    private EventSink.Coll gather(Layer l) {
        long n = l.paramBytes() / 4;
        return new EventSink.Coll("c10d::_allgather_base_", "_allgather_base", "nccl:_all_gather_base", AG_KERNEL,
                n / s.common().worldSize(), n);
    }

    private EventSink.Coll scatter(Layer l) {
        long n = l.paramBytes() / 4;
        return new EventSink.Coll("c10d::_reduce_scatter_base_", "_reduce_scatter_base", "nccl:_reduce_scatter_base",
                RS_KERNEL, n, n / s.common().worldSize());
    }

    private void alloc(int tid, long ts, long bytes) {
        allocated += bytes;
        out.memory(tid, ts, bytes, allocated, 8L * 1024 * 1024 * 1024);
    }

    /** One step with device origin t0; returns its last device end. */
    private long step(int number, long t0) {
        List<Layer> layers = s.layers();
        int n = layers.size();
        int main = out.mainTid;
        int ag = out.autogradTid;
        long hostFirst = t0 - LEAD;
        int[] agRecord = null;

        // Input block, with layer 1's all-gather issued just before it.
        long agFree = t0;
        long h = t0 - LEAD;
        long agStart = t0;
        long agEnd = agStart + layers.get(0).agNs();
        out.collective(main, h + 2 * US, gather(layers.get(0)), AG_STREAM, agStart, agEnd);
        alloc(main, h + 3 * US, layers.get(0).paramBytes());
        if (s.syncEvents()) {
            agRecord = out.record(main, h + 34 * US);
        }
        agFree = agEnd;
        int ext = out.hostOp("cpu_op", "aten::embedding", main, h + 40 * US, h + 55 * US);
        out.kernel(main, h + 43 * US, ext, INPUT_KERNEL, COMPUTE, t0, t0 + s.inputNs());
        long computeFree = t0 + s.inputNs();
        long[] agEnds = new long[n];
        agEnds[0] = agEnd;

        for (int k = 0; k < n; k++) {
            long start = Math.max(computeFree, agEnds[k]);
            h = start - LEAD;
            if (s.syncEvents()) {
                out.streamWait(main, h + 1 * US, COMPUTE, AG_STREAM, agRecord, start);
            }
            if (k + 1 < n) { // prefetch the next layer's parameters
                long ps = Math.max(agFree, start);
                agEnds[k + 1] = ps + layers.get(k + 1).agNs();
                out.collective(main, h + 3 * US, gather(layers.get(k + 1)), AG_STREAM, ps, agEnds[k + 1]);
                alloc(main, h + 4 * US, layers.get(k + 1).paramBytes());
                agFree = agEnds[k + 1];
                if (s.syncEvents()) {
                    agRecord = out.record(main, h + 35 * US);
                }
            }
            ext = out.hostOp("cpu_op", "aten::linear", main, h + 40 * US, h + 55 * US);
            out.kernel(main, h + 43 * US, ext, FWD_KERNEL, COMPUTE, start, start + layers.get(k).fwdNs());
            alloc(main, h + 54 * US, -layers.get(k).paramBytes()); // reshard after forward
            computeFree = start + layers.get(k).fwdNs();
        }

        // Head (loss) while the last layer's backward all-gather runs.
        long headStart = computeFree;
        h = headStart - LEAD;
        Layer last = layers.get(n - 1);
        long[] bwdAgEnds = new long[n];
        long bs = Math.max(agFree, headStart);
        bwdAgEnds[n - 1] = bs + last.bwdAgNs();
        out.collective(ag, h + 3 * US, gather(last), AG_STREAM, bs, bwdAgEnds[n - 1]);
        alloc(ag, h + 4 * US, last.paramBytes());
        agFree = bwdAgEnds[n - 1];
        if (s.syncEvents()) {
            agRecord = out.record(ag, h + 35 * US);
        }
        ext = out.hostOp("cpu_op", "aten::cross_entropy_loss", main, h + 40 * US, h + 55 * US);
        out.kernel(main, h + 43 * US, ext, HEAD_KERNEL, COMPUTE, headStart, headStart + s.headNs());
        computeFree = headStart + s.headNs();

        long rsFree = Long.MIN_VALUE;
        long lastDevice = computeFree;
        for (int k = n - 1; k >= 0; k--) {
            Layer l = layers.get(k);
            long start = Math.max(computeFree, bwdAgEnds[k]);
            h = start - LEAD;
            if (s.syncEvents()) {
                out.streamWait(ag, h + 1 * US, COMPUTE, AG_STREAM, agRecord, start);
            }
            if (k > 0) {
                long ps = Math.max(agFree, start);
                bwdAgEnds[k - 1] = ps + layers.get(k - 1).bwdAgNs();
                out.collective(ag, h + 3 * US, gather(layers.get(k - 1)), AG_STREAM, ps, bwdAgEnds[k - 1]);
                alloc(ag, h + 4 * US, layers.get(k - 1).paramBytes());
                agFree = bwdAgEnds[k - 1];
                if (s.syncEvents()) {
                    agRecord = out.record(ag, h + 35 * US);
                }
            }
            out.hostOp("cpu_op", "autograd::engine::evaluate_function: AddmmBackward0", ag, h + 40 * US, h + 60 * US);
            ext = out.hostOp("cpu_op", "AddmmBackward0", ag, h + 41 * US, h + 59 * US);
            long end = start + l.bwdNs();
            out.kernel(ag, h + 43 * US, ext, BWD_KERNEL, COMPUTE, start, end);
            alloc(ag, h + 57 * US, l.paramBytes()); // unsharded gradient
            alloc(ag, h + 58 * US, -l.paramBytes()); // reshard after backward
            computeFree = end;
            int[] gradRecord = s.syncEvents() ? out.record(ag, h + 62 * US) : null;
            long rs = Math.max(rsFree, end);
            long rsEnd = rs + l.rsNs();
            if (s.syncEvents()) {
                out.streamWait(ag, h + 70 * US, RS_STREAM, COMPUTE, gradRecord, rs);
            }
            out.collective(ag, h + 64 * US, scatter(l), RS_STREAM, rs, rsEnd);
            alloc(ag, h + 95 * US, -l.paramBytes()); // gradient handed to the reduce-scatter
            rsFree = rsEnd;
            lastDevice = Math.max(lastDevice, rsEnd);
        }

        // Optimizer on the main thread once backward has returned.
        long o = computeFree - LEAD + 100 * US;
        long optEnd;
        if (s.optimizerNs() > 0) {
            long os = Math.max(computeFree, rsFree);
            o = os - LEAD;
            int e = out.hostOp("cpu_op", TimelinePlanner.OPTIMIZER_OP, main, o + 2 * US, o + 20 * US);
            out.kernel(main, o + 5 * US, e, TimelinePlanner.OPT_KERNEL, COMPUTE, os, os + s.optimizerNs());
            lastDevice = Math.max(lastDevice, os + s.optimizerNs());
            optEnd = o + 25 * US;
        } else {
            optEnd = o + 15 * US;
        }
        out.hostOp("user_annotation", "Optimizer.step#AdamW.step", main, o, optEnd);
        out.hostOp("user_annotation", "ProfilerStep#" + number, main, hostFirst - 5 * US,
                Math.max(optEnd, h + 100 * US) + 5 * US);
        return lastDevice;
    }
}
