package io.overlapanalyze.synth;

import static io.overlapanalyze.synth.EventSink.US;

import io.overlapanalyze.synth.ParallelScenario.Pipeline;
import java.util.List;

/**
 * {@link Pipeline} → Kineto events (device semantics in {@link ParallelScenario}). Sends and
 * receives are issued on the main thread {@link #LEAD} before their device start; forward ops on
 * the main thread, backward ops on the autograd thread. Each host thread keeps a cursor so its
 * ops never overlap; a plan whose ops would crowd so much that a launch falls after its device
 * start fails instead of writing a wrong trace.
 */
final class PipelinePlanner {
    static final int COMPUTE = 7;
    static final int SEND_STREAM = 22;
    static final int RECV_STREAM = 23;
    static final long LEAD = 300 * US;
    static final String P2P_KERNEL = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

    private final Pipeline s;
    private final EventSink out;
    private long mainCursor = Long.MIN_VALUE;
    private long autogradCursor = Long.MIN_VALUE;

    private PipelinePlanner(Pipeline s, EventSink out) {
        this.s = s;
        this.out = out;
    }

    static EventSink emit(Pipeline s) {
        EventSink sink = new EventSink(s.common().rank(), s.common().worldSize(),
                List.of(COMPUTE, SEND_STREAM, RECV_STREAM));
        PipelinePlanner p = new PipelinePlanner(s, sink);
        long t0 = TimelinePlanner.TRACE_ORIGIN_NS + 400 * US;
        for (int i = 0; i < s.common().steps(); i++) {
            long end = p.step(s.common().firstStep() + i, t0);
            t0 = end + Math.max(s.common().stepGapNs(), 2 * LEAD);
        }
        return sink;
    }

    private long mainAt(long desired, long length) {
        long h = Math.max(desired, mainCursor);
        mainCursor = h + length + US;
        return h;
    }

    private long autogradAt(long desired, long length) {
        long h = Math.max(desired, autogradCursor);
        autogradCursor = h + length + US;
        return h;
    }

    private EventSink.Coll p2p(boolean send) {
        long n = s.p2pBytes() / 4;
        return send
                ? new EventSink.Coll("c10d::send", "send", "nccl:send", P2P_KERNEL, n, n)
                : new EventSink.Coll("c10d::recv_", "recv", "nccl:recv", P2P_KERNEL, n, n);
    }

    /** One host op to place: at {@code desired} or, when the thread is busy, as soon as it is free. */
    private record HostAction(long desired, boolean main, long length, java.util.function.LongConsumer emit) {
    }

    /**
     * Device times first (the semantics of {@link ParallelScenario}), then the host ops of each
     * thread in order of their desired host time: a send of an earlier micro-batch may be wanted
     * after a later receive.
     */
    private long step(int number, long t0) {
        boolean first = s.stage() == 0;
        boolean last = s.stage() == s.stages() - 1;
        int m = s.microBatches();
        long stepHostStart = Math.max(t0 - LEAD - 10 * US, Math.max(mainCursor, autogradCursor));
        mainCursor = stepHostStart + 5 * US;
        autogradCursor = stepHostStart + 5 * US;
        List<HostAction> actions = new java.util.ArrayList<>();
        long computeFree = t0;
        long sendFree = Long.MIN_VALUE;
        long lastDevice = t0;
        for (int b = 0; b < m; b++) {
            long ready = t0;
            if (!first) {
                long rs = t0 + b * s.arrivalIntervalNs();
                long re = rs + s.p2pNs();
                actions.add(new HostAction(rs - LEAD, true, 30 * US,
                        h -> out.collective(out.mainTid, h, p2p(false), RECV_STREAM, rs, re)));
                ready = re;
            }
            long fs = Math.max(computeFree, ready);
            long fe = fs + s.fwdNs();
            actions.add(new HostAction(fs - LEAD, true, 15 * US, h -> {
                int ext = out.hostOp("cpu_op", "aten::linear", out.mainTid, h, h + 15 * US);
                out.kernel(out.mainTid, h + 3 * US, ext, TimelinePlanner.FWD_KERNEL, COMPUTE, fs, fe);
            }));
            computeFree = fe;
            if (!last) {
                long ss = Math.max(sendFree, computeFree);
                long se = ss + s.p2pNs();
                actions.add(new HostAction(ss - LEAD, true, 30 * US,
                        h -> out.collective(out.mainTid, h, p2p(true), SEND_STREAM, ss, se)));
                sendFree = se;
                lastDevice = Math.max(lastDevice, se);
            }
        }
        long lastForwardEnd = computeFree;
        for (int j = 0; j < m; j++) {
            long ready = computeFree;
            if (!last) {
                long rs = lastForwardEnd + s.turnaroundNs() - s.p2pNs() + j * s.arrivalIntervalNs();
                long re = rs + s.p2pNs();
                actions.add(new HostAction(rs - LEAD, true, 30 * US,
                        h -> out.collective(out.mainTid, h, p2p(false), RECV_STREAM, rs, re)));
                ready = re;
            }
            long bs = Math.max(computeFree, ready);
            long be = bs + s.bwdNs();
            actions.add(new HostAction(bs - LEAD, false, 20 * US, h -> {
                out.hostOp("cpu_op", "autograd::engine::evaluate_function: AddmmBackward0", out.autogradTid, h,
                        h + 20 * US);
                int ext = out.hostOp("cpu_op", "AddmmBackward0", out.autogradTid, h + US, h + 19 * US);
                out.kernel(out.autogradTid, h + 3 * US, ext, TimelinePlanner.BWD_KERNEL, COMPUTE, bs, be);
            }));
            computeFree = be;
            lastDevice = Math.max(lastDevice, computeFree);
            if (!first) {
                long ss = Math.max(sendFree, computeFree);
                long se = ss + s.p2pNs();
                actions.add(new HostAction(ss - LEAD, true, 30 * US,
                        h -> out.collective(out.mainTid, h, p2p(true), SEND_STREAM, ss, se)));
                sendFree = se;
                lastDevice = Math.max(lastDevice, se);
            }
        }
        actions.sort(java.util.Comparator.comparingLong(HostAction::desired)); // stable: plan order on ties
        for (HostAction a : actions) {
            a.emit().accept(a.main() ? mainAt(a.desired(), a.length()) : autogradAt(a.desired(), a.length()));
        }
        long o = mainAt(lastDevice - LEAD + 50 * US, 15 * US);
        out.hostOp("user_annotation", "Optimizer.step#SGD.step", out.mainTid, o, o + 15 * US);
        long hostEnd = Math.max(mainCursor, autogradCursor) + 5 * US;
        out.hostOp("user_annotation", "ProfilerStep#" + number, out.mainTid, stepHostStart, hostEnd);
        mainCursor = hostEnd + US;
        autogradCursor = Math.max(autogradCursor, hostEnd + US);
        return lastDevice;
    }
}
