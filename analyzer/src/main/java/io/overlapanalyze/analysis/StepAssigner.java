package io.overlapanalyze.analysis;

import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.primitives.SortedSearch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a rank's device work into steps (metrics.md §2).
 *
 * <ul>
 *   <li>Steps are the {@link HostSpanKind#STEP} host spans, in start order. Their spans are
 *       assumed not to overlap (ProfilerStep#N ranges never do); a launch is looked up in the
 *       latest span that starts at or before it.</li>
 *   <li>Device work belongs to the step whose host span {@code [start, end)} contains its host
 *       launch time. Only an interval without a launch time ({@link Time#UNKNOWN}) is assigned by
 *       device start within {@code [step host start, next step host start)}; the last step's
 *       range is open-ended. The choice is made per interval, so a trace where only some
 *       kernels lost their launch link still assigns the others exactly.</li>
 *   <li>Work launched outside every step span (before the first step, between steps, warm-up) is
 *       in no step; it is counted so the report can say how much was left out.</li>
 *   <li>Work the reader marked as launched before the capture ({@link DeviceIntervals#preCapture})
 *       is in no step either, whatever its device time (metrics.md §2); it is kept apart, by
 *       start, for the rank's {@code preCapture} figures. Neither it nor the choice of steps a
 *       user selects changes which step any other interval goes to.</li>
 *   <li>No STEP spans: one synthetic step named {@code all} holding every device interval.</li>
 *   <li>Partial: a host launch without device activity ({@link RankTrace#unmatchedLaunchNs()})
 *       inside the step's host span, or the trace is truncated and this is the last step.</li>
 * </ul>
 * Cost: one O(n log n) sort of all intervals by device start, then O(log s) per interval.
 */
public final class StepAssigner {
    /** Name of the single step of a trace without step annotations. */
    public static final String WHOLE_TRACE_STEP = "all";

    /**
     * One step and its device work.
     *
     * @param name        step name ("ProfilerStep#4" or "all")
     * @param hostStartNs host start of the step span ({@link Time#UNKNOWN} for "all")
     * @param hostEndNs   host end of the step span ({@link Time#UNKNOWN} for "all")
     * @param partial     metrics.md §2 partial step
     * @param synthetic   true for the "all" step of a trace without step annotations
     * @param intervals   device interval indexes of the step, sorted by device start (then end, index)
     */
    public record Step(String name, long hostStartNs, long hostEndNs, boolean partial, boolean synthetic,
                       int[] intervals) {
    }

    /**
     * @param steps      the steps, in host order
     * @param unassigned device intervals launched outside every step span
     * @param preCapture device intervals launched before the capture, by device start
     */
    public record Assignment(List<Step> steps, int unassigned, int[] preCapture) {
        public Assignment {
            steps = List.copyOf(steps);
        }

        public Assignment(List<Step> steps, int unassigned) {
            this(steps, unassigned, new int[0]);
        }
    }

    private StepAssigner() {
    }

    public static Assignment assign(RankTrace trace) {
        DeviceIntervals dev = trace.device();
        int n = dev.size();
        int[] sorted = sortedByStart(dev);
        int[] preCapture = preCaptureOf(dev, sorted);
        int[] byStart = preCapture.length == 0 ? sorted : withoutPreCapture(dev, sorted, preCapture.length);
        long[] unmatched = trace.unmatchedLaunchNs() == null ? new long[0] : trace.unmatchedLaunchNs().clone();
        Arrays.sort(unmatched);

        List<HostSpan> stepSpans = new ArrayList<>();
        for (HostSpan span : trace.hostSpans()) {
            if (span.kind() == HostSpanKind.STEP) {
                stepSpans.add(span);
            }
        }
        stepSpans.sort((a, b) -> Long.compare(a.startNs(), b.startNs()));

        if (stepSpans.isEmpty()) {
            boolean partial = unmatched.length > 0 || trace.truncated();
            Step all = new Step(WHOLE_TRACE_STEP, Time.UNKNOWN, Time.UNKNOWN, partial, true, byStart);
            return new Assignment(List.of(all), 0, preCapture);
        }

        int s = stepSpans.size();
        long[] spanStart = new long[s];
        long[] spanEnd = new long[s];
        for (int k = 0; k < s; k++) {
            spanStart[k] = stepSpans.get(k).startNs();
            spanEnd[k] = stepSpans.get(k).endNs();
        }
        int[] stepOf = new int[n];
        int[] counts = new int[s];
        int unassigned = 0;
        for (int i = 0; i < n; i++) {
            if (dev.preCapture(i)) {
                stepOf[i] = -1;
                continue;
            }
            int k = SortedSearch.lastAtOrBefore(spanStart, s, Time.isKnown(dev.launchNs(i)) ? dev.launchNs(i) : dev.start(i));
            if (k >= 0 && Time.isKnown(dev.launchNs(i)) && dev.launchNs(i) >= spanEnd[k]) {
                k = -1; // launched after this step's span ended and before the next began
            }
            stepOf[i] = k;
            if (k < 0) {
                unassigned++;
            } else {
                counts[k]++;
            }
        }
        int[][] members = new int[s][];
        int[] fill = new int[s];
        for (int k = 0; k < s; k++) {
            members[k] = new int[counts[k]];
        }
        // Walking the global start order keeps every step's list sorted by start.
        for (int i : byStart) {
            int k = stepOf[i];
            if (k >= 0) {
                members[k][fill[k]++] = i;
            }
        }
        List<Step> steps = new ArrayList<>(s);
        for (int k = 0; k < s; k++) {
            HostSpan span = stepSpans.get(k);
            boolean partial = anyWithin(unmatched, span.startNs(), span.endNs())
                    || (trace.truncated() && k == s - 1);
            steps.add(new Step(span.name(), span.startNs(), span.endNs(), partial, false, members[k]));
        }
        return new Assignment(steps, unassigned, preCapture);
    }

    /** The pre-capture intervals among {@code sorted}, in that order. */
    private static int[] preCaptureOf(DeviceIntervals dev, int[] sorted) {
        int count = dev.preCaptureCount();
        int[] out = new int[count];
        if (count == 0) {
            return out;
        }
        int m = 0;
        for (int i : sorted) {
            if (dev.preCapture(i)) {
                out[m++] = i;
            }
        }
        return out;
    }

    private static int[] withoutPreCapture(DeviceIntervals dev, int[] sorted, int preCaptureCount) {
        int[] out = new int[sorted.length - preCaptureCount];
        int m = 0;
        for (int i : sorted) {
            if (!dev.preCapture(i)) {
                out[m++] = i;
            }
        }
        return out;
    }

    /** All interval indexes sorted by device start, then end, then index. */
    static int[] sortedByStart(DeviceIntervals dev) {
        int n = dev.size();
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        PrimitiveSort.sort(idx, (a, b) -> {
            int c = Long.compare(dev.start(a), dev.start(b));
            return c != 0 ? c : Long.compare(dev.end(a), dev.end(b));
        });
        return idx;
    }

    private static boolean anyWithin(long[] sorted, long start, long end) {
        int k = SortedSearch.lastAtOrBefore(sorted, sorted.length, end - 1);
        return k >= 0 && sorted[k] >= start;
    }
}
