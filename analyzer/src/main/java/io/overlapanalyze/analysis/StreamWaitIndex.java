package io.overlapanalyze.analysis;

import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.StreamWait;
import io.overlapanalyze.model.Time;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A rank's {@link StreamWait}s grouped by waiting lane and sorted by submission time, built once
 * per trace (O(w log w)) and shared by every step's {@link DataReady}. Only waits that can be
 * followed are kept: submission time known (to place the wait in its lane's order), recorded lane
 * and record time known (to say what it waited for). A trace whose waits are all unusable (e.g.
 * {@code wait_on_cuda_event_record_corr_id} -1 everywhere) is treated as one without waits.
 */
public final class StreamWaitIndex {
    private static final StreamWaitIndex EMPTY = new StreamWaitIndex(Map.of());

    /**
     * The waits of one lane, parallel arrays sorted by {@code submitNs}.
     */
    record LaneWaits(long[] submitNs, int[] recordedLane, long[] recordHostNs) {
        int size() {
            return submitNs.length;
        }
    }

    private final Map<Integer, LaneWaits> byLane;

    private StreamWaitIndex(Map<Integer, LaneWaits> byLane) {
        this.byLane = byLane;
    }

    public static StreamWaitIndex of(RankTrace trace) {
        List<StreamWait> waits = trace.streamWaits();
        if (waits.isEmpty()) {
            return EMPTY;
        }
        Map<Integer, List<StreamWait>> grouped = new HashMap<>();
        for (StreamWait w : waits) {
            if (Time.isKnown(w.submitNs()) && w.recordKnown()) {
                grouped.computeIfAbsent(w.waitingLane(), l -> new ArrayList<>()).add(w);
            }
        }
        Map<Integer, LaneWaits> byLane = new HashMap<>();
        grouped.forEach((lane, list) -> {
            list.sort((a, b) -> Long.compare(a.submitNs(), b.submitNs()));
            int n = list.size();
            long[] submit = new long[n];
            int[] recorded = new int[n];
            long[] record = new long[n];
            for (int j = 0; j < n; j++) {
                StreamWait w = list.get(j);
                submit[j] = w.submitNs();
                recorded[j] = w.recordedLane();
                record[j] = w.recordHostNs();
            }
            byLane.put(lane, new LaneWaits(submit, recorded, record));
        });
        return new StreamWaitIndex(byLane);
    }

    /** True when the trace has no usable stream wait at all (the fallback rules apply). */
    boolean isEmpty() {
        return byLane.isEmpty();
    }

    /** The waits submitted to {@code lane}, or {@code null} when none. */
    LaneWaits onLane(int lane) {
        return byLane.get(lane);
    }
}
