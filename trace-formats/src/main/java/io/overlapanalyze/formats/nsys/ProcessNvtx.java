package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.input.HostRangeCollector;
import io.overlapanalyze.model.HostSpan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one process's NVTX ranges and thread names give the analysis. NVTX is per process (nsys.md
 * §5: domains are per process), and every rank (device) of the process shares it.
 */
final class ProcessNvtx {
    /** STEP, OPTIMIZER and BACKWARD spans, in start order (rows arrive sorted). */
    final List<HostSpan> spans = new ArrayList<>();
    /** Every other NVTX range (NCCL's own excluded), outermost per thread (metrics.md §11). */
    final HostRangeCollector hostRanges = new HostRangeCollector();
    /** PyTorch {@code c10d::*} ops: a collective's enqueue time. */
    final NvtxTimeline c10d = new NvtxTimeline();
    /** PyTorch {@code nccl:*} RecordFunctions: a collective's type. */
    final NvtxTimeline commAnnotations = new NvtxTimeline();
    /** NCCL's own API ranges (domain "NCCL"): type of the kernels launched inside them. */
    final NvtxTimeline ncclApi = new NvtxTimeline();
    /** tid → names (ThreadNames, NVTX thread naming). */
    final Map<Long, List<String>> threadNames = new LinkedHashMap<>();
    /** domainId → domain name (NvtxDomainCreate rows). */
    final Map<Long, String> domains = new LinkedHashMap<>();
    /** True when PyTorch {@code emit_nvtx} ranges are present: host phase information exists. */
    boolean pytorchRanges;
    /** MPI rank from a "MPI Rank N" thread name or the MPI_RANKS table, or {@code null}. */
    Integer mpiRank;
    int stepSpansDropped;

    void addThreadName(long tid, String name) {
        List<String> names = threadNames.computeIfAbsent(tid, k -> new ArrayList<>(1));
        if (!names.contains(name)) {
            names.add(name);
        }
    }

    void build() {
        c10d.build();
        commAnnotations.build();
        ncclApi.build();
    }
}
