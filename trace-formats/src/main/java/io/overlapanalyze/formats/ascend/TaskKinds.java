package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.DeviceKind;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Device task types → {@link DeviceKind} (ascend.md §3.3). COMPUTE is exactly the set that
 * reproduces Huawei's own Computing lane ({@code AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU,
 * DSA_SQE}; PROVENANCE.md "union rule"), so our computeBusy and their Computing measure the same
 * tasks. The rest is our choice, not a Huawei definition: event/notify tasks are SYNC (never
 * compute, metrics.md §1), DMA tasks MEMCPY, anything else OTHER.
 */
final class TaskKinds {
    static final Set<String> COMPUTE = Set.of("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV", "AI_CPU", "DSA_SQE");

    private TaskKinds() {
    }

    /**
     * {@code PROFILING_ENABLE} / {@code PROFILING_DISABLE}: placeholder tasks the profiler itself
     * puts on stream 0 at capture start and end. They are no work of the job, and keeping them
     * would stretch the last step's device window to the end of the capture (11 ms on the
     * 2025-01 sample), so they are not read.
     */
    static boolean isProfilerMarker(String name) {
        return name != null && name.startsWith("PROFILING_");
    }

    /** The AI Core kinds of {@link #COMPUTE}: every NPU job runs some, so a file that types none left them unresolved. */
    static final Set<String> AI_CORE = Set.of("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC", "MIX_AIV");

    /**
     * The type a 2024 torch_npu timeline gives its AI Core tasks ({@code "Task Type": "Other"}, with
     * {@code "Stream Id"} for {@code "Physic Stream Id"}; the AI CPU ones there are typed
     * {@code AI_CPU}): the profiler did not resolve it, and its own Computing lane counts those tasks
     * (one Computing event per task, same start and duration, in msprof-analyze's advisor unit-test
     * timeline). So in a file that types no task as {@link #AI_CORE} work, "Other" tasks are compute,
     * except the runtime's own tasks, named like a task type ({@code MEMCPY_ASYNC}: capitals, digits
     * and underscores, where kernels carry op names such as {@code Conv2D1} or
     * {@code trans_TransData_3_MemSet}), which that lane leaves out and which are read by their name;
     * in a file that does type AI Core work, "Other" means what it says. (No 2025 capture has "Other"
     * tasks.)
     */
    static final String UNRESOLVED = "Other";
    private static final Pattern RUNTIME_TASK_NAME = Pattern.compile("^[A-Z][A-Z0-9_]*$");

    /**
     * {@link #ofTaskType(String)}, except for {@link #UNRESOLVED} tasks when the file types no AI Core
     * task: compute, or, for a runtime task, the kind its name says.
     */
    static DeviceKind ofTaskType(String taskType, String name, boolean unresolvedIsCompute) {
        if (unresolvedIsCompute && UNRESOLVED.equals(taskType)) {
            if (name != null && RUNTIME_TASK_NAME.matcher(name).matches()) {
                return ofTaskType(name);
            }
            return DeviceKind.COMPUTE;
        }
        return ofTaskType(taskType);
    }

    static DeviceKind ofTaskType(String taskType) {
        if (taskType == null) {
            return DeviceKind.OTHER;
        }
        if (COMPUTE.contains(taskType)) {
            return DeviceKind.COMPUTE;
        }
        String t = taskType.toUpperCase(Locale.ROOT);
        if (t.contains("EVENT") || t.contains("NOTIFY") || t.contains("WRITE VALUE") || t.contains("WRITE_VALUE")
                || t.contains("BARRIER")) {
            return DeviceKind.SYNC;
        }
        if (t.contains("MEMSET")) {
            return DeviceKind.MEMSET;
        }
        if (t.contains("DMA") || t.contains("MEMCPY")) {
            return DeviceKind.MEMCPY;
        }
        return DeviceKind.OTHER;
    }
}
