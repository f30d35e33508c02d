package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.formats.kernels.KernelRules;
import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.CollectiveType;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.Time;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One collective per NCCL kernel, so that every COMM interval belongs to exactly one collective.
 * The export has no collective metadata besides NVTX (nsys.md §6–§7; payloads with the message
 * size are not in a default export), so bytes, counts, dtype and group stay unknown. What NVTX
 * gives, looked up at the kernel's launch on the launching thread:
 * <ul>
 *   <li>enqueue time: the outermost PyTorch {@code c10d::*} range (as in the Kineto reader); else the
 *       first NCCL API call of the group that launched the kernel; else the launch itself;</li>
 *   <li>type: the {@code c10d::*} op, else a {@code nccl:*} RecordFunction, else the NCCL API calls of
 *       the group ({@code ncclAllReduce} ...; mixed send/recv stays UNKNOWN), else the kernel name.</li>
 * </ul>
 */
final class CollectiveBuilder {
    /** How far back to look for the ncclGroupStart of a group (API ranges of one group are adjacent). */
    private static final int GROUP_LOOK_BACK = 4096;

    private CollectiveBuilder() {
    }

    static List<Collective> build(RankBuilder rank, ProcessNvtx nvtx) {
        DeviceIntervals dev = rank.device;
        List<Collective> out = new ArrayList<>((int) rank.commIntervals.size());
        for (int k = 0; k < rank.commIntervals.size(); k++) {
            int i = (int) rank.commIntervals.get(k);
            out.add(collective(out.size(), i, dev, nvtx));
            dev.setCollective(i, out.size() - 1);
        }
        return out;
    }

    private static Collective collective(int id, int i, DeviceIntervals dev, ProcessNvtx nvtx) {
        String kernel = dev.name(i);
        long launch = dev.launchNs(i);
        long tid = dev.launchThread(i);
        String name = kernel;
        CollectiveType type = CollectiveType.fromName(kernel);
        if (type == CollectiveType.UNKNOWN && KernelRules.isExpertParallelKernel(kernel)) {
            type = CollectiveType.ALL_TO_ALL;
        }
        long enqueue = Time.UNKNOWN;
        if (Time.isKnown(launch) && nvtx != null) {
            enqueue = launch;
            NcclCall call = ncclCall(nvtx, tid, launch);
            if (call != null) {
                enqueue = call.start;
                if (call.type != CollectiveType.UNKNOWN || type == CollectiveType.UNKNOWN) {
                    type = call.type;
                    name = call.name;
                }
            }
            NvtxTimeline.Hit annotation = nvtx.commAnnotations.innermostContaining(tid, launch);
            if (annotation != null && CollectiveType.fromName(annotation.name()) != CollectiveType.UNKNOWN) {
                type = CollectiveType.fromName(annotation.name());
                name = annotation.name();
            }
            NvtxTimeline.Hit c10d = nvtx.c10d.outermostContaining(tid, launch);
            if (c10d != null) {
                enqueue = c10d.start();
                if (CollectiveType.fromName(c10d.name()) != CollectiveType.UNKNOWN) {
                    type = CollectiveType.fromName(c10d.name());
                    name = c10d.name();
                }
            }
        }
        return new Collective(id, type, name, null, -1, -1, -1, null, -1, enqueue,
                Time.isKnown(launch) ? tid : -1, new int[] {i});
    }

    private record NcclCall(String name, CollectiveType type, long start) {
    }

    /** The NCCL API call(s) that launched a kernel at {@code launch} on {@code tid}, or {@code null}. */
    private static NcclCall ncclCall(ProcessNvtx nvtx, long tid, long launch) {
        if (nvtx.ncclApi.isEmpty()) {
            return null;
        }
        NvtxTimeline.Hit inner = nvtx.ncclApi.innermostContaining(tid, launch);
        if (inner == null) {
            return null;
        }
        if (!inner.name().equals("ncclGroupEnd")) {
            return new NcclCall(inner.name(), CollectiveType.fromName(inner.name()), inner.start());
        }
        // Grouped calls (observed: every kernel launch lies inside ncclGroupEnd): the calls made
        // since the group's ncclGroupStart say what the group does.
        NvtxTimeline.Hit groupStart = nvtx.ncclApi.latestNamedAtOrBefore(tid, "ncclGroupStart", inner.start(),
                GROUP_LOOK_BACK);
        long from = groupStart == null ? inner.start() : groupStart.start();
        Set<String> calls = new LinkedHashSet<>();
        long first = inner.start();
        for (NvtxTimeline.Hit h : nvtx.ncclApi.startingWithin(tid, from, inner.start())) {
            if (!NvtxNames.isNcclBookkeeping(h.name())) {
                calls.add(h.name());
                first = Math.min(first, h.start());
            }
        }
        if (calls.isEmpty()) {
            return new NcclCall(inner.name(), CollectiveType.UNKNOWN, inner.start());
        }
        Set<CollectiveType> types = new LinkedHashSet<>();
        for (String c : calls) {
            types.add(CollectiveType.fromName(c));
        }
        CollectiveType type = types.size() == 1 ? types.iterator().next() : CollectiveType.UNKNOWN;
        return new NcclCall(String.join("+", calls), type, first);
    }
}
