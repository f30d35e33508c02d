package io.overlapanalyze.synth;

import static io.overlapanalyze.synth.EventSink.US;

import io.overlapanalyze.synth.ParallelScenario.MoeEp;
import java.util.List;

/**
 * {@link MoeEp} → Kineto events (device semantics in {@link ParallelScenario}): two micro-batches
 * {@code F} and {@code B} of one MoE layer per step, DeepEP's kernels on the expert-parallel
 * stream, attention and MLP on the compute stream. The host launches every kernel {@link #LEAD}
 * before its device start, on the main thread; each device op also gets a
 * {@code gpu_user_annotation} range on its stream ({@code attention(F)}, {@code dispatch(B)} …),
 * as a DualPipe-style schedule's {@code record_function} ranges appear on the device.
 */
final class MoePlanner {
    static final int COMPUTE = 7;
    static final int EP_STREAM = 30;
    static final long LEAD = 300 * US;
    static final String LAYOUT_KERNEL = "void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, "
            + "int*, int*, bool*, int, int, int, int)";
    static final String NOTIFY_KERNEL = "void deep_ep::intranode::notify_dispatch<8>(int const*, int*, int, int const*, "
            + "int*, int, int, int, int const*, int*, int*, int, void**, int**, int)";
    static final String DISPATCH_KERNEL = "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, "
            + "float*, int*, int*, int4 const*, float const*, long const*, float const*, bool const*, int const*, int, "
            + "int, int, int, int, int, void**, int, int, int)";
    static final String COMBINE_KERNEL = "void deep_ep::intranode::combine<__nv_bfloat16, 8, 768, 4096>(__nv_bfloat16*, "
            + "float*, __nv_bfloat16 const*, float const*, int const*, int const*, int const*, int, int, int, void**, "
            + "int, int, int)";
    static final String ATTENTION_KERNEL = "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, "
            + "false, false, cutlass::bfloat16_t>, false, true, false, false, true, true, false, false>(Flash_fwd_params)";
    static final String MLP_KERNEL = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1"
            + "_execute_segment_k_off_kernel__5x_cublas";

    private final MoeEp s;
    private final EventSink out;
    private long hostCursor = Long.MIN_VALUE;

    private MoePlanner(MoeEp s, EventSink out) {
        this.s = s;
        this.out = out;
    }

    static EventSink emit(MoeEp s) {
        EventSink sink = new EventSink(s.common().rank(), s.common().worldSize(), List.of(COMPUTE, EP_STREAM));
        MoePlanner p = new MoePlanner(s, sink);
        long t0 = TimelinePlanner.TRACE_ORIGIN_NS + 2 * LEAD;
        for (int i = 0; i < s.common().steps(); i++) {
            long end = p.step(s.common().firstStep() + i, t0);
            t0 = end + Math.max(s.common().stepGapNs(), 2 * LEAD);
        }
        return sink;
    }

    /** One device op: its host op and launch {@link #LEAD} earlier (later when the thread is busy), kernel, annotation. */
    private void op(String hostOp, String kernel, String label, int stream, long start, long end) {
        long h = Math.max(start - LEAD, hostCursor);
        hostCursor = h + 20 * US;
        int ext = out.hostOp("cpu_op", hostOp, out.mainTid, h, h + 15 * US);
        out.kernel(out.mainTid, h + 5 * US, ext, kernel, stream, start, end);
        if (label != null) {
            out.deviceAnnotation(label, stream, start, end);
        }
    }

    /** One step with device origin t0 (schedule in {@link ParallelScenario}); returns its last device end. */
    private long step(int number, long t0) {
        long stepHost = t0 - LEAD - 10 * US;
        hostCursor = Math.max(hostCursor, stepHost + 5 * US);
        long c = t0;
        op("deep_ep::Buffer::get_dispatch_layout", LAYOUT_KERNEL, null, COMPUTE, c, c + s.layoutNs());
        c += s.layoutNs();
        long commFree = t0;
        long[] dispatchEnd = new long[2];
        String[] mb = {"F", "B"};
        for (int m = 0; m < 2; m++) {
            op("aten::_flash_attention_forward", ATTENTION_KERNEL, "attention(" + mb[m] + ")", COMPUTE, c,
                    c + s.attentionNs());
            c += s.attentionNs();
            long n = Math.max(commFree, c);
            op("deep_ep::Buffer::intranode_dispatch", NOTIFY_KERNEL, null, EP_STREAM, n, n + s.notifyNs());
            long d = n + s.notifyNs();
            op("deep_ep::Buffer::intranode_dispatch", DISPATCH_KERNEL, "dispatch(" + mb[m] + ")", EP_STREAM, d,
                    d + s.dispatchNs());
            commFree = d + s.dispatchNs();
            dispatchEnd[m] = commFree;
        }
        long last = t0;
        for (int m = 0; m < 2; m++) {
            long ms = Math.max(c, dispatchEnd[m]);
            op("aten::mm", MLP_KERNEL, "mlp(" + mb[m] + ")", COMPUTE, ms, ms + s.mlpNs());
            c = ms + s.mlpNs();
            long cs = Math.max(commFree, c);
            op("deep_ep::Buffer::intranode_combine", COMBINE_KERNEL, "combine(" + mb[m] + ")", EP_STREAM, cs,
                    cs + s.combineNs());
            commFree = cs + s.combineNs();
            last = Math.max(c, commFree);
        }
        long hostEnd = Math.max(hostCursor, last - LEAD) + 10 * US;
        out.hostOp("user_annotation", "ProfilerStep#" + number, out.mainTid, stepHost, hostEnd);
        hostCursor = hostEnd + US;
        return last;
    }
}
