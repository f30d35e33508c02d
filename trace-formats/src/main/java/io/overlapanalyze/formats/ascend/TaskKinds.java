package io.overlapanalyze.formats.ascend;

import io.overlapanalyze.model.DeviceKind;

import java.util.Locale;
import java.util.Set;

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
