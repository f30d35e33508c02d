package io.overlapanalyze.formats.nsys;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an NVTX range name means for the analysis: steps, optimizer and backward spans,
 * PyTorch collective ops (nsys.md §5–§7).
 */
final class NvtxNames {
    /**
     * The default step patterns of metrics.md §2 ({@code ProfilerStep#N}, {@code step N},
     * {@code iteration N}), matched against the whole name after the emit_nvtx suffix is removed,
     * so "optimizer_step 3" or "step_time" are not steps.
     */
    static final Pattern DEFAULT_STEP_PATTERN = Pattern.compile(
            "ProfilerStep\\s*+#\\s*+\\d++|(?i:step)[\\s_#:]*+\\d++|(?i:iteration)[\\s_#:]*+\\d++");

    private static final Pattern EMIT_NVTX_SUFFIX = Pattern.compile(", (seq|op_id|sizes|input_op_ids) = ");

    private NvtxNames() {
    }

    /**
     * The RecordFunction name of a PyTorch {@code emit_nvtx} range: {@code "aten::mm, seq = 12,
     * op_id = 345"} → {@code "aten::mm"} (pytorch {@code getNvtxStr}); other names unchanged.
     */
    static String baseName(String name) {
        Matcher m = EMIT_NVTX_SUFFIX.matcher(name);
        return m.find() ? name.substring(0, m.start()) : name;
    }

    /** True when the raw name carries emit_nvtx's {@code seq}/{@code op_id} suffix or is an ATen op. */
    static boolean looksLikePyTorch(String rawName) {
        return rawName.startsWith("aten::") || EMIT_NVTX_SUFFIX.matcher(rawName).find();
    }

    /** {@code Optimizer.step#…}, not {@code Optimizer.zero_grad#…} (metrics.md §2). */
    static boolean isOptimizer(String base) {
        return base.startsWith("Optimizer.step#");
    }

    /** The autograd engine's ops: {@code autograd::engine::evaluate_function: …} or {@code …Backward…}. */
    static boolean isBackward(String base) {
        return base.startsWith("autograd::engine::evaluate_function: ") || base.contains("Backward");
    }

    /** {@code c10d::allreduce_} and friends: PyTorch's collective ops; their start is the enqueue time. */
    static boolean isC10d(String base) {
        return base.startsWith("c10d::");
    }

    /** {@code nccl:all_reduce}-style RecordFunctions that name a collective's type. */
    static boolean isCommAnnotation(String base) {
        int colon = base.indexOf(':');
        if (colon <= 0 || base.startsWith("c10d::") || base.startsWith("aten::")) {
            return false;
        }
        String lib = base.substring(0, colon).toLowerCase(Locale.ROOT);
        return lib.equals("nccl") || lib.equals("rccl") || lib.equals("gloo") || lib.equals("ucc");
    }

    /** NCCL API ranges that do not issue a collective by themselves. */
    static boolean isNcclBookkeeping(String ncclRangeName) {
        return ncclRangeName.equals("ncclGroupStart") || ncclRangeName.equals("ncclGroupEnd")
                || ncclRangeName.startsWith("ncclComm") || ncclRangeName.startsWith("ncclMem")
                || ncclRangeName.startsWith("ncclGet");
    }
}
