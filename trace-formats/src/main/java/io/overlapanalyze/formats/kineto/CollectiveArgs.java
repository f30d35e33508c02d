package io.overlapanalyze.formats.kineto;

import java.util.Locale;

/**
 * The collective metadata Kineto attaches to {@code record_param_comms} CPU ops and, in newer
 * traces, to the NCCL kernels themselves (kineto.md §6). Every field may be missing: strings are
 * {@code null}, numbers {@link #NONE}.
 *
 * @param collectiveName {@code Collective name} ("allreduce", "_allgather_base", "wait"...)
 * @param inElements     {@code In msg nelems}
 * @param outElements    {@code Out msg nelems}
 * @param dtype          {@code dtype} (c10 scalar type name)
 * @param groupSize      {@code Group size}
 * @param groupName      {@code Process Group Name}, or the older {@code Process Group ID} as text
 * @param groupDesc      {@code Process Group Description}
 * @param groupRanks     {@code Process Group Ranks}, the raw text ("[0, 1]")
 * @param sequence       {@code Seq}
 */
record CollectiveArgs(String collectiveName, long inElements, long outElements, String dtype, long groupSize,
                      String groupName, String groupDesc, String groupRanks, long sequence) {
    static final long NONE = Long.MIN_VALUE;

    /** True when the args say anything about a collective at all. */
    boolean any() {
        return collectiveName != null || inElements != NONE || outElements != NONE || dtype != null
                || groupName != null || groupRanks != null;
    }

    /**
     * Message size: {@code max(in, out) elements × dtype size}. The larger side is the full
     * buffer the collective moves for every type: equal for all-reduce/broadcast, the gathered
     * output for all-gather, the scattered input for reduce-scatter. {@code -1} when the element
     * counts or the dtype size are unknown.
     */
    long bytes() {
        long elements = Math.max(inElements == NONE ? -1 : inElements, outElements == NONE ? -1 : outElements);
        int size = dtypeSize(dtype);
        if (elements < 0 || size < 0) {
            return -1;
        }
        try {
            return Math.multiplyExact(elements, size);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    /** Bytes per element of a c10 scalar type name, or {@code -1} when unknown. */
    static int dtypeSize(String dtype) {
        if (dtype == null) {
            return -1;
        }
        String d = dtype.toLowerCase(Locale.ROOT);
        if (d.startsWith("float8")) {
            return 1; // Float8_e4m3fn, Float8_e5m2, ...: one byte by definition
        }
        switch (d) {
            case "bool":
            case "byte":
            case "char":
            case "uint8":
            case "int8":
            case "qint8":
            case "quint8":
                return 1;
            case "bfloat16":
            case "half":
            case "short":
            case "uint16":
            case "int16":
                return 2;
            case "float":
            case "int":
            case "uint32":
            case "int32":
            case "complexhalf":
            case "qint32":
                return 4;
            case "long":
            case "double":
            case "uint64":
            case "int64":
            case "complexfloat":
                return 8;
            case "complexdouble":
                return 16;
            default:
                return -1;
        }
    }
}
