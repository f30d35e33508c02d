package io.overlapanalyze.formats.nsys;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.Lane;
import io.overlapanalyze.model.ShapePool;
import io.overlapanalyze.model.StringPool;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.IntList;
import io.overlapanalyze.primitives.LongIntMap;
import io.overlapanalyze.primitives.LongList;
import io.overlapanalyze.primitives.PrimitiveSort;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The device work of one rank: one (process, CUDA device) pair of the export (nsys.md §8).
 * Streams are keyed by (context, stream) within the pair, because stream ids repeat across
 * processes and contexts.
 *
 * <p>Rows of a device table arrive in the export's own order, which nsys does not promise to be
 * time order (nsys.md §9). They are buffered in primitive columns ({@link #pend}: 28 bytes a row,
 * no object per row) and {@link #flush}ed at the end of each table: ordered by (start, end) with
 * {@link PrimitiveSort} and appended to {@link #device} in that order, lanes numbered in order of first
 * use. The model is therefore exactly what an {@code ORDER BY start, end} query would have built.
 */
final class RankBuilder {
    final long processKey;
    final long pid;
    final int deviceId;
    /** The rank's device intervals; created at the first {@link #flush}, sized to the rows then. */
    DeviceIntervals device;
    private final Map<Long, Map<Long, Integer>> laneIndex = new HashMap<>();
    private final List<long[]> laneKeys = new ArrayList<>();
    /** Indexes of COMM kernels, in device start order. */
    final LongList commIntervals = new LongList(64);
    long kernels;
    long commKernels;
    /** Start and end of this rank's first kernel in time order: ranks are listed in that order. */
    long firstStart = Long.MAX_VALUE;
    long firstEnd = Long.MAX_VALUE;

    // Rows of the table being read, in read order.
    private LongList pendStart = new LongList(1024);
    private LongList pendEnd = new LongList(1024);
    private IntList pendLane = new IntList(1024);
    private IntList pendName = new IntList(1024);
    private LongList pendCorrelation = new LongList(1024);
    /** Launch shape ids (the session's {@link ShapePool}) of the pending rows, -1 for none. */
    private IntList pendShape = new IntList(1024);
    /** Provisional lanes of the pending rows: (context, stream) in read order. */
    private final LongList provContext = new LongList(16);
    private final LongList provStream = new LongList(16);
    /** context → stream → provisional lane: a row's lane found in constant time, however many streams. */
    private final Map<Long, LongIntMap> provIndex = new HashMap<>();
    private int lastProv = -1;

    /** A row without correlationId (CUPTI's ids are unsigned 32-bit, so this value never occurs). */
    static final long NO_CORRELATION = Long.MIN_VALUE;

    RankBuilder(long processKey, int deviceId) {
        this.processKey = processKey;
        this.pid = GlobalIds.pid(processKey);
        this.deviceId = deviceId;
    }

    /**
     * Buffers one row. {@code name} indexes the session's {@link RowNames}; {@code correlation} is its
     * correlationId ({@link #NO_CORRELATION} for none), joined to the launch call at {@link #flush}.
     */
    void pend(long start, long end, long context, long stream, int name, long correlation, int shape) {
        pendShape.add(shape);
        pendStart.add(start);
        pendEnd.add(end);
        pendLane.add(provisionalLane(context, stream));
        pendName.add(name);
        pendCorrelation.add(correlation);
    }

    private int provisionalLane(long context, long stream) {
        if (lastProv >= 0 && provContext.get(lastProv) == context && provStream.get(lastProv) == stream) {
            return lastProv;
        }
        // Not a walk over the lanes seen: with a stream per kernel that was rows × streams.
        LongIntMap byStream = provIndex.computeIfAbsent(context, k -> new LongIntMap());
        int k = byStream.get(stream);
        if (k == LongIntMap.MISSING) {
            k = provContext.size();
            provContext.add(context);
            provStream.add(stream);
            byStream.put(stream, k);
        }
        lastProv = k;
        return k;
    }

    /** Orders the buffered rows by time and appends them to {@link #device}; empties the buffer. */
    void flush(RowNames names, LaunchIndex launches, ShapePool shapes) {
        int n = pendStart.size();
        if (device == null) {
            device = new DeviceIntervals(new StringPool(), n + 1024);
        }
        if (n > 0) {
            int[] order = PrimitiveSort.indexesSortedBy(pendStart.array(), pendEnd.array(), n);
            int[] lanes = new int[provContext.size()];
            java.util.Arrays.fill(lanes, -1);
            // A kernel whose correlationId is below every call of its process was launched before
            // the capture (metrics.md §2): its call is older than the first one recorded.
            long firstCall = launches.firstCorrelation(processKey);
            for (int i : order) {
                int prov = pendLane.get(i);
                int lane = lanes[prov];
                if (lane < 0) {
                    lane = lane(provContext.get(prov), provStream.get(prov));
                    lanes[prov] = lane;
                }
                long c = pendCorrelation.get(i);
                int launch = c == NO_CORRELATION ? -1 : launches.match(processKey, c);
                int nameRef = pendName.get(i);
                int added = add(pendStart.get(i), pendEnd.get(i), lane, names.kind(nameRef), names.name(nameRef),
                        launch < 0 ? Time.UNKNOWN : launches.start(launch), launch < 0 ? -1 : launches.globalTid(launch));
                if (launch < 0 && c != NO_CORRELATION && c < firstCall) {
                    device.markPreCapture(added);
                }
                int shape = pendShape.get(i);
                if (shape >= 0) {
                    device.setShape(added, shapes.get(shape));
                }
            }
        }
        pendStart = new LongList(16);
        pendEnd = new LongList(16);
        pendLane = new IntList(16);
        pendName = new IntList(16);
        pendCorrelation = new LongList(16);
        pendShape = new IntList(16);
        provContext.clear();
        provStream.clear();
        provIndex.clear();
        lastProv = -1;
    }

    private int add(long start, long end, int lane, DeviceKind kind, String name, long launchNs, long launchTid) {
        int i = device.add(start, end, lane, kind, name, launchNs, launchTid);
        if (kind == DeviceKind.COMM) {
            commIntervals.add(i);
            commKernels++;
        }
        if (kind == DeviceKind.COMM || kind == DeviceKind.COMPUTE) {
            if (kernels == 0) {
                firstStart = start;
                firstEnd = end;
            }
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
