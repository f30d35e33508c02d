package io.overlapanalyze.formats.kernels;

import io.overlapanalyze.model.DeviceKind;

import java.util.List;

/**
 * Decides what a Kineto device event is (metrics.md §1, kineto.md §3.1 and §7) and which host
 * runtime calls launch device work. Kernels are told apart by name with the {@link KernelRules}
 * every reader shares (communication, fused compute-communication, compute).
 */
public final class KernelClassifier {
    private final KernelRules rules;

    /** A classifier with the built-in rules only. */
    public KernelClassifier() {
        this(KernelRules.builtIn());
    }

    /** The built-in rules plus {@code extraCommPatterns} (substrings, any case) meaning communication. */
    public KernelClassifier(List<String> extraCommPatterns) {
        this(KernelRules.builtIn().withCommSubstrings(extraCommPatterns));
    }

    public KernelClassifier(KernelRules rules) {
        this.rules = rules;
    }

    /** The name rules this classifier applies to kernels. */
    public KernelRules rules() {
        return rules;
    }

    /**
     * The model kind for a device event of category {@code cat}, or {@code null} when {@code cat}
     * is not a device category this reader keeps (gpu_user_annotation, host categories...).
     */
    public DeviceKind kindOf(String cat, String name) {
        if (cat == null) {
            return null;
        }
        switch (cat) {
            case "kernel":
            case "Kernel": // legacy capitalised category (2022 traces)
                return rules.kindOfKernel(name);
            case "gpu_memcpy":
            case "Memcpy":
                return DeviceKind.MEMCPY;
            case "gpu_memset":
            case "Memset":
                return DeviceKind.MEMSET;
            case "cuda_sync":
                return DeviceKind.SYNC;
            case "cuda_event":
                return DeviceKind.OTHER;
            case MTIA_DEVICE:
                return mtiaKind(name);
            default:
                return null;
        }
    }

    /** Meta's MTIA accelerators write all their device events under this one category. */
    public static final String MTIA_DEVICE = "mtia_ccp_events";

    /**
     * What an {@code mtia_ccp_events} event is, by its name (kineto.md §3.1): {@code dma_request}
     * moves memory, {@code event_record}/{@code event_wait} synchronise streams; everything else
     * ({@code pe_exe}, {@code merge}, {@code remote}: work run by the processing elements) is a
     * kernel, communication when its name says so.
     */
    private DeviceKind mtiaKind(String name) {
        if (name == null) {
            return DeviceKind.COMPUTE;
        }
        if (name.startsWith("dma")) {
            return DeviceKind.MEMCPY;
        }
        if (name.startsWith("event_") || name.contains("sync")) {
            return DeviceKind.SYNC;
        }
        return rules.kindOfKernel(name);
    }

    /** True for the device categories {@link #kindOf} keeps (whatever the name). */
    public static boolean isDeviceCategory(String cat) {
        if (cat == null) {
            return false;
        }
        switch (cat) {
            case "kernel":
            case "Kernel":
            case "gpu_memcpy":
            case "Memcpy":
            case "gpu_memset":
            case "Memset":
            case "cuda_sync":
            case "cuda_event":
            case MTIA_DEVICE:
                return true;
            default:
                return false;
        }
    }

    /** True for categories whose events are kernels (the only device events that can be COMM). */
    public static boolean isKernelCategory(String cat) {
        return "kernel".equals(cat) || "Kernel".equals(cat);
    }

    /**
     * True for the host categories that carry launch correlation ids: CUDA and ROCm
     * ({@code cuda_runtime}, {@code cuda_driver}, legacy {@code Runtime}), MTIA ({@code mtia_runtime}),
     * Intel XPU ({@code xpu_runtime}, {@code xpu_driver}) and PyTorch's PrivateUse1 backends; their
     * device work uses the CUDA device categories, except MTIA's ({@link #MTIA_DEVICE}).
     */
    public static boolean isRuntimeCategory(String cat) {
        if (cat == null) {
            return false;
        }
        switch (cat) {
            case "cuda_runtime":
            case "cuda_driver":
            case "Runtime":
            case "mtia_runtime":
            case "xpu_runtime":
            case "xpu_driver":
            case "privateuse1_runtime":
            case "privateuse1_driver":
                return true;
            default:
                return false;
        }
    }

    /**
     * True for the categories Kineto writes for host-side events and bookkeeping that are not
     * device work (kineto.md §3.1): anything else with launch correlation ids may be device work of
     * an accelerator the reader does not know, which it then says.
     */
    public static boolean isKnownHostCategory(String cat) {
        if (cat == null) {
            return false;
        }
        switch (cat) {
            case "cpu_op":
            case "user_annotation":
            case "gpu_user_annotation":
            case "python_function":
            case "cpu_instant_event":
            case "overhead":
            case "Trace":
            case "fwdbwd":
            case "ac2g":
            case "async_cpu_to_gpu":
            case "async_gpu":
            case "Operator":
            case "Python":
            case "external_correlation":
                return true;
            default:
                return false;
        }
    }

    /** What a kernel called {@code name} is: {@code COMPUTE}, {@code COMM} or {@code FUSED}. */
    public DeviceKind kindOfKernel(String name) {
        return rules.kindOfKernel(name);
    }

    /**
     * True when a runtime/driver call launches device work that the trace must show, so that a
     * missing device event means the trace lost work (metrics.md §2, partial steps). CUDA and ROCm
     * names: {@code cudaLaunchKernel*}, {@code cuLaunch*}, {@code hipLaunchKernel},
     * {@code hipExtModuleLaunchKernel}, {@code cuda/hipMemcpy*}, graph launches.
     *
     * <p>Memset calls are deliberately not counted: complete traces routinely hold
     * {@code cudaMemsetAsync} calls without a device record (observed: 235 of 380 in the
     * world-size-1 HTA {@code ns_resolution} trace, 3 in {@code nccl_data}), and counting them
     * would mark every step of a complete capture partial.
     */
    public static boolean launchesDeviceWork(String runtimeName) {
        if (runtimeName == null) {
            return false;
        }
        return runtimeName.contains("LaunchKernel")
                || runtimeName.contains("LaunchCooperativeKernel")
                || runtimeName.contains("cuLaunch")
                || runtimeName.contains("hipLaunch")
                || runtimeName.contains("hipExtModuleLaunchKernel")
                || runtimeName.contains("GraphLaunch")
                || runtimeName.contains("Memcpy");
    }
}
