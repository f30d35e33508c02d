package io.overlapanalyze.formats.nsys;

/**
 * Nsight's serialized process/thread ids (nsys.md §4): {@code <HW:8><VM:8><PID:24><TID:24>}.
 * Values can be negative (high byte set), so only shifts and masks are used, never / or %.
 */
final class GlobalIds {
    /** The TID bits cleared: the globalPid of a globalTid (-16777216 as a signed 64-bit value). */
    static final long PROCESS_MASK = 0xFFFFFFFFFF000000L;

    private GlobalIds() {
    }

    static long pid(long global) {
        return (global >>> 24) & 0xFFFFFF;
    }

    static long tid(long global) {
        return global & 0xFFFFFF;
    }

    /** The process part (HW, VM, PID) of a globalTid or globalPid: equal for every thread of one process. */
    static long process(long global) {
        return global & PROCESS_MASK;
    }
}
