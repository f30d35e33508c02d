package io.overlapanalyze.model;

import java.util.Locale;

/** The logical type of a collective (metrics.md §1). */
public enum CollectiveType {
    ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER, BROADCAST, REDUCE, ALL_TO_ALL, SEND, RECV, BARRIER,
    GATHER, SCATTER, UNKNOWN;

    /** True for the types that can reduce gradients (metrics.md §3). */
    public boolean isReduction() {
        return this == ALL_REDUCE || this == REDUCE_SCATTER || this == REDUCE;
    }

    /**
     * Infers the type from any name that mentions it: {@code allreduce}, {@code _allgather_base},
     * {@code nccl:all_reduce}, {@code ncclKernel_AllReduce_RING_LL_Sum_float}, {@code hcom_allReduce__...}.
     * Normalises like Chakra does (drop {@code _}/{@code -}, lower-case, substring match).
     */
    public static CollectiveType fromName(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        String n = name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        if (n.contains("allreduce")) {
            return ALL_REDUCE;
        }
        if (n.contains("reducescatter")) {
            return REDUCE_SCATTER;
        }
        if (n.contains("allgather")) {
            return ALL_GATHER;
        }
        if (n.contains("alltoall")) {
            return ALL_TO_ALL;
        }
        if (n.contains("broadcast")) {
            return BROADCAST;
        }
        if (n.contains("barrier")) {
            return BARRIER;
        }
        if (n.contains("sendrecv")) {
            return UNKNOWN;
        }
        if (n.contains("reduce")) {
            return REDUCE;
        }
        if (n.contains("gather")) {
            return GATHER;
        }
        if (n.contains("scatter")) {
            return SCATTER;
        }
        if (n.contains("send")) {
            return SEND;
        }
        if (n.contains("recv")) {
            return RECV;
        }
        return UNKNOWN;
    }
}
