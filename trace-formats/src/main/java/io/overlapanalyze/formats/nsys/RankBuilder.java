package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.StringPool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The device work of one rank: one (process, CUDA device) pair of the export (nsys.md §8).
 * Streams are keyed by (context, stream) within the pair, because stream ids repeat across
 * processes and contexts.
 */
final class RankBuilder {
    final long processKey;
    final long pid;
    final int deviceId;
    final DeviceIntervals device = new DeviceIntervals(new StringPool(), 4096);
    final List<Lane> lanes = new ArrayList<>();
    private final Map<Long, Map<Long, Integer>> laneIndex = new HashMap<>();
    private final List<long[]> laneKeys = new ArrayList<>();
    /** Indexes of COMM kernels, in device start order (kernel rows arrive sorted by start). */
    final LongList commIntervals = new LongList(64);
    long kernels;
    long commKernels;

    RankBuilder(long processKey, int deviceId) {
        this.processKey = processKey;
        this.pid = GlobalIds.pid(processKey);
        this.deviceId = deviceId;
    }

    int add(long start, long end, long context, long stream, DeviceKind kind, String name, long launchNs,
            long launchTid) {
        int i = device.add(start, end, lane(context, stream), kind, name, launchNs, launchTid);
        if (kind == DeviceKind.COMM) {
            commIntervals.add(i);
            commKernels++;
        }
        if (kind == DeviceKind.COMM || kind == DeviceKind.COMPUTE) {
            kernels++;
        }
        return i;
    }

    private int lane(long context, long stream) {
        Map<Long, Integer> byStream = laneIndex.computeIfAbsent(context, k -> new HashMap<>());
        Integer idx = byStream.get(stream);
        if (idx == null) {
            idx = laneKeys.size();
            laneKeys.add(new long[] {context, stream});
            byStream.put(stream, idx);
        }
        return idx;
    }

    /** Lanes labelled "stream N" (with the context when the rank used several). */
    List<Lane> lanes() {
        boolean manyContexts = laneIndex.size() > 1;
        List<Lane> out = new ArrayList<>(laneKeys.size());
        for (long[] k : laneKeys) {
            String label = (manyContexts ? "context " + k[0] + " " : "") + "stream " + k[1];
            out.add(new Lane(out.size(), deviceId, k[1], label));
        }
        return out;
    }
}
