package io.overlapanalyze.analysis;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.report.PreCapture;

import java.util.List;

/**
 * The steps' periods (metrics.md §2) and what idle is measured against (§5), computed once per
 * rank before the steps are analysed, from the whole trace: so a step's numbers never depend on
 * which other steps a user selects.
 *
 * <ul>
 *   <li>A step's period starts at its first device start (synchronisation rows excluded: their
 *       times are the host's) and ends at the next step's first device start; the last step's
 *       ends at its own window end. Steps without device work have none and are skipped. A period
 *       never starts before the previous one ended (a step whose first work starts before its
 *       predecessor's is clamped), so periods never overlap and their sum never exceeds the
 *       device span of the steps.</li>
 *   <li>Device busy time is the union of every COMPUTE, COMM, MEMCPY and MEMSET interval of the
 *       rank: any step's, work launched outside every step, work launched before the capture.
 *       SYNC is never work; OTHER (a communication stream's own tasks on Ascend, graph launches)
 *       is not counted as work either, as in a step's own busy time.</li>
 * </ul>
 */
public final class StepPeriods {
    private StepPeriods() {
    }

    /** The rank's device busy time: the union of its work of every step, or of none. */
    public static IntervalSet deviceBusy(DeviceIntervals dev) {
        IntervalSet.Builder b = IntervalSet.builder();
        for (int i = 0; i < dev.size(); i++) {
            if (isWork(dev.kind(i))) {
                b.add(dev.start(i), dev.end(i));
            }
        }
        return b.build();
    }

    static boolean isWork(DeviceKind kind) {
        return kind == DeviceKind.COMPUTE || kind == DeviceKind.COMM || kind == DeviceKind.MEMCPY
                || kind == DeviceKind.MEMSET || kind == DeviceKind.FUSED;
    }

    /** Per step (same order), its period; {@code null} for a step without device work. */
    public static ExposureAnalysis.Period[] of(DeviceIntervals dev, List<StepAssigner.Step> steps, IntervalSet busy) {
        int n = steps.size();
        long[] firstStart = new long[n];
        long[] windowEnd = new long[n];
        for (int k = 0; k < n; k++) {
            int[] iv = steps.get(k).intervals();
            firstStart[k] = StepContext.windowStartOf(dev, iv);
            long end = Long.MIN_VALUE;
            for (int i : iv) {
                if (dev.kind(i) != DeviceKind.SYNC) {
                    end = Math.max(end, dev.end(i));
                }
            }
            windowEnd[k] = end;
        }
        ExposureAnalysis.Period[] out = new ExposureAnalysis.Period[n];
        long previousEnd = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            if (firstStart[k] == Long.MAX_VALUE) {
                continue;
            }
            int next = k + 1;
            while (next < n && firstStart[next] == Long.MAX_VALUE) {
                next++;
            }
            long start = Math.max(firstStart[k], previousEnd);
            long end = next < n ? firstStart[next] : windowEnd[k];
            end = Math.max(start, end);
            out[k] = new ExposureAnalysis.Period(start, end, busy);
            previousEnd = end;
        }
        return out;
    }

    /** The rank's pre-capture figures and the union of that work (for the steps' notes). */
    public record PreCaptureWork(PreCapture figures, IntervalSet busy) {
    }

    public static PreCaptureWork preCapture(DeviceIntervals dev, int[] preCapture) {
        IntervalSet.Builder all = IntervalSet.builder();
        IntervalSet.Builder comm = IntervalSet.builder();
        for (int i : preCapture) {
            DeviceKind kind = dev.kind(i);
            if (isWork(kind)) {
                all.add(dev.start(i), dev.end(i));
            }
            if (kind == DeviceKind.COMM) {
                comm.add(dev.start(i), dev.end(i));
            }
        }
        IntervalSet busy = all.build();
        return new PreCaptureWork(new PreCapture(preCapture.length, busy.length(), comm.build().length()), busy);
    }
}
