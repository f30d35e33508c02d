package io.overlapanalyze.formats.kineto;

import io.overlapanalyze.model.StreamWait;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.LongIntMap;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the collected {@code cuda_sync} "Stream Wait Event" rows into {@link StreamWait}s, once the
 * whole file is read (the {@code cudaEventRecord} call may come before or after the wait):
 * <ul>
 *   <li>waiting lane: the sync event's own lane ({@code args.stream}, else {@code tid});</li>
 *   <li>recorded lane: ({@code pid} of the waiting lane, {@code wait_on_stream}); -1 when the value
 *       is negative/absent or that stream has no device event in the trace (nothing to depend on);</li>
 *   <li>record time: {@code ts} of the runtime call whose {@code correlation} equals
 *       {@code wait_on_cuda_event_record_corr_id} (the {@code cudaEventRecord}); unknown when the id
 *       is -1, beyond {@code long}, or names no runtime call;</li>
 *   <li>submit time: {@code ts} of the runtime call with the sync event's own {@code correlation}
 *       (the {@code cudaStreamWaitEvent}); without one, the sync event's {@code ts}, which CUPTI
 *       stamps with that same API call's start (synchronization records time the API call).</li>
 * </ul>
 * Times are in the file's frame; {@code baseNs} is added here, as for every other time.
 */
final class StreamWaitJoiner {
    private StreamWaitJoiner() {
    }

    /** {@code runtimeByCorrelation}: the runtime-call row of each correlation id ({@link CollectiveJoiner}'s). */
    static List<StreamWait> join(TraceCollector c, LongIntMap runtimeByCorrelation, long baseNs) {
        int n = c.waitLane.size();
        if (n == 0) {
            return List.of();
        }
        List<StreamWait> out = new ArrayList<>(n);
        for (int w = 0; w < n; w++) {
            int waiting = (int) c.waitLane.get(w);
            long device = c.laneKeys.get(waiting)[0];
            long stream = c.waitOnStream.get(w);
            int recorded = device >= 0 && stream >= 0 ? c.existingLane(device, stream) : -1;
            long record = hostTs(c, runtimeByCorrelation, c.waitRecordCorrelation.get(w));
            long submit = hostTs(c, runtimeByCorrelation, c.waitCorrelation.get(w));
            long waitTs = c.waitTs.get(w);
            if (!Time.isKnown(submit)) {
                submit = waitTs;
            }
            out.add(new StreamWait(waiting, shift(waitTs, baseNs), shift(submit, baseNs), recorded,
                    shift(record, baseNs)));
        }
        return out;
    }

    /** Host {@code ts} of the runtime call with this correlation, or {@link Time#UNKNOWN}. */
    private static long hostTs(TraceCollector c, LongIntMap runtimeByCorrelation, long correlation) {
        if (correlation == CollectiveArgs.NONE || correlation < 0) {
            return Time.UNKNOWN;
        }
        int row = runtimeByCorrelation.get(correlation);
        return row == LongIntMap.MISSING ? Time.UNKNOWN : c.rtTs.get(row);
    }

    private static long shift(long t, long baseNs) {
        return Time.isKnown(t) ? t + baseNs : t;
    }
}
