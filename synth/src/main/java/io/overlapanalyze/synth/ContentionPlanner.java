package io.overlapanalyze.synth;

import static io.overlapanalyze.synth.EventSink.US;

import io.overlapanalyze.synth.ParallelScenario.Contention;
import java.util.List;
import java.util.SplittableRandom;

/**
 * {@link Contention} → Kineto events (device semantics in {@link ParallelScenario}): a DDP-like
 * step whose backward GEMMs run under a gradient all-reduce and are {@code slowdownPct} % longer
 * than the same GEMMs in forward, which run alone.
 */
final class ContentionPlanner {
    static final int COMPUTE = 7;
    static final int COMM = 20;
    static final long LEAD = 100 * US;
    static final String GEMM = "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8_stage3_warpsize2x2x1_ffma_"
            + "aligna4_alignc4_execute_kernel_trt";
    static final String HEAD_KERNEL = "void at::native::vectorized_elementwise_kernel<4, at::native::"
            + "FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
            + "at::detail::Array<char*, 1>)";

    static final List<Integer> GRID_A = List.of(132, 1, 1);
    static final List<Integer> BLOCK_A = List.of(128, 1, 1);
    static final List<Integer> GRID_B = List.of(264, 1, 1);
    static final List<Integer> BLOCK_B = List.of(256, 1, 1);

    private final Contention s;
    private final EventSink out;
    private final SplittableRandom random;
    private long mainCursor = Long.MIN_VALUE;
    private long autogradCursor = Long.MIN_VALUE;

    private ContentionPlanner(Contention s, EventSink out) {
        this.s = s;
        this.out = out;
        this.random = new SplittableRandom(s.seed());
    }

    static EventSink emit(Contention s) {
        EventSink sink = new EventSink(s.common().rank(), s.common().worldSize(), List.of(COMPUTE, COMM));
        ContentionPlanner p = new ContentionPlanner(s, sink);
        long t0 = TimelinePlanner.TRACE_ORIGIN_NS + 200 * US;
        for (int i = 0; i < s.common().steps(); i++) {
            long end = p.step(s.common().firstStep() + i, t0);
            t0 = end + Math.max(s.common().stepGapNs(), 3 * LEAD);
        }
        return sink;
    }

    private long jittered() {
        if (s.jitterPct() == 0) {
            return s.kernelNs();
        }
        double f = 1 + s.jitterPct() / 100 * (2 * random.nextDouble() - 1);
        return Math.max(1, Math.round(s.kernelNs() * f));
    }

    private long at(boolean main, long desired, long length) {
        long cursor = main ? mainCursor : autogradCursor;
        long h = Math.max(desired, cursor);
        if (main) {
            mainCursor = h + length + US;
        } else {
            autogradCursor = h + length + US;
        }
        return h;
    }

    private EventSink.Coll allReduce(long bytes) {
        return new EventSink.Coll("c10d::allreduce_", "allreduce", "nccl:all_reduce", TraceEventBuilder.NCCL_KERNEL,
                bytes / 4, bytes / 4);
    }

    private long step(int number, long t0) {
        long hostStart = t0 - LEAD - 10 * US;
        mainCursor = Math.max(mainCursor, hostStart + 5 * US);
        autogradCursor = Math.max(autogradCursor, hostStart + 5 * US);
        boolean shaped = s.fasterPct() >= 0;
        List<Integer> gridA = shaped ? GRID_A : null;
        List<Integer> blockA = shaped ? BLOCK_A : null;
        long free = t0;
        for (int i = 0; i < s.kernels(); i++) {
            long d = jittered();
            long h = at(true, free - LEAD, 10 * US);
            int ext = out.hostOp("cpu_op", "aten::mm", out.mainTid, h, h + 10 * US);
            out.kernel(out.mainTid, h + 3 * US, ext, GEMM, COMPUTE, free, free + d, gridA, blockA);
            free += d;
        }
        if (shaped) {
            for (int i = 0; i < s.kernels(); i++) {
                long d = 2 * jittered();
                long h = at(true, free - LEAD, 10 * US);
                int ext = out.hostOp("cpu_op", "aten::mm", out.mainTid, h, h + 10 * US);
                out.kernel(out.mainTid, h + 3 * US, ext, GEMM, COMPUTE, free, free + d, GRID_B, BLOCK_B);
                free += d;
            }
        }
        // Backward: a head kernel produces bucket 1; its all-reduce runs exactly as long as the
        // slowed-down GEMMs that follow.
        long h = at(false, free - LEAD, 20 * US);
        out.hostOp("cpu_op", "autograd::engine::evaluate_function: MulBackward0", out.autogradTid, h, h + 20 * US);
        int ext = out.hostOp("cpu_op", "MulBackward0", out.autogradTid, h + US, h + 19 * US);
        out.kernel(out.autogradTid, h + 3 * US, ext, HEAD_KERNEL, COMPUTE, free, free + s.headNs());
        free += s.headNs();
        long[] slowed = new long[s.kernels()];
        long total = 0;
        for (int i = 0; i < slowed.length; i++) {
            long d = jittered();
            slowed[i] = Math.round(d * (100.0 + s.slowdownPct()) / 100.0);
            total += slowed[i];
        }
        long[] faster = new long[shaped ? s.kernels() : 0];
        for (int i = 0; i < faster.length; i++) {
            long d = 2 * jittered();
            faster[i] = Math.round(d * (100.0 - s.fasterPct()) / 100.0);
            total += faster[i];
        }
        long arStart = free;
        long hc = at(false, arStart - LEAD, 30 * US);
        out.collective(out.autogradTid, hc, allReduce(26_214_400L), COMM, arStart, arStart + total);
        for (long d : slowed) {
            long hk = at(false, free - LEAD, 20 * US);
            out.hostOp("cpu_op", "autograd::engine::evaluate_function: MmBackward0", out.autogradTid, hk, hk + 20 * US);
            int e = out.hostOp("cpu_op", "MmBackward0", out.autogradTid, hk + US, hk + 19 * US);
            out.kernel(out.autogradTid, hk + 3 * US, e, GEMM, COMPUTE, free, free + d, gridA, blockA);
            free += d;
        }
        for (long d : faster) {
            long hk = at(false, free - LEAD, 20 * US);
            out.hostOp("cpu_op", "autograd::engine::evaluate_function: MmBackward0", out.autogradTid, hk, hk + 20 * US);
            int e = out.hostOp("cpu_op", "MmBackward0", out.autogradTid, hk + US, hk + 19 * US);
            out.kernel(out.autogradTid, hk + 3 * US, e, GEMM, COMPUTE, free, free + d, GRID_B, BLOCK_B);
            free += d;
        }
        long h2 = at(false, free - LEAD, 30 * US);
        out.collective(out.autogradTid, h2, allReduce(13_107_200L), COMM, free, free + s.commNs());
        long end = free + s.commNs();
        long o = at(true, Math.max(mainCursor, autogradCursor), 15 * US);
        out.hostOp("user_annotation", "Optimizer.step#SGD.step", out.mainTid, o, o + 15 * US);
        long hostEnd = Math.max(mainCursor, autogradCursor) + 5 * US;
        out.hostOp("user_annotation", "ProfilerStep#" + number, out.mainTid, hostStart, hostEnd);
        mainCursor = hostEnd + US;
        autogradCursor = hostEnd + US;
        return end;
    }
}
