package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Annotation;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.HostSpan;
import io.overlapanalyze.model.HostSpanKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;
import io.overlapanalyze.primitives.PrimitiveSort;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.StepBreakdown;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each step's period went (metrics.md §11), for every step of a rank in one pass.
 *
 * <p>The period is split instant by instant over the device work of the whole rank (any step's,
 * work launched outside every step, work launched before the capture), in the precedence compute
 * &gt; fused &gt; communication &gt; copies &gt; idle. The per-kind unions are built once per rank
 * and made disjoint once (fused minus compute, communication minus both, copies minus all three),
 * so each part of a period is one {@link IntervalSet#lengthWithin} on its own set: the five parts
 * add up to the period by construction, and the idle part is exactly what
 * {@link ExposureAnalysis} calls idle (the same work set, {@link StepPeriods#deviceBusy}).
 *
 * <p>Work kinds: COMPUTE, FUSED, COMM, MEMCPY and MEMSET, exactly the work that
 * {@link StepPeriods#deviceBusy} counts. SYNC is never work (its times are the host call's), and
 * OTHER rows (Kineto's {@code cuda_event}, Nsight's graph-launch rows, an Ascend communication
 * stream's own tasks) are not work either, as for the step's {@code idleNs}: counting them would
 * make the breakdown's idle differ from the step's idle, which the contract forbids.
 *
 * <p>Idle gaps (maximal stretches with no work) are split by the work that starts when the gap
 * ends (several: the one with the earliest known host launch): before its launch the device
 * waited for the host ({@code hostNs}), after it the work was issued but not started
 * ({@code launchedNs}), no launch known: {@code unknownNs}. Host-bound time is attributed to the
 * outermost host range on the launching thread that covers each instant (the step range itself
 * excluded), or {@link HostActivity#BETWEEN_RANGES}; each step keeps its {@value #TOP_ACTIVITIES}
 * largest activities, largest first (ties by name).
 *
 * <p>Cost: O(n log n) for the sorts of the rank's intervals and host ranges, then linear: periods
 * never overlap and idle gaps are disjoint, so every run and range is visited a bounded number of
 * times (no step × interval loop).
 */
public final class StepBreakdowns {
    /** How many host activities each step keeps (the largest). */
    public static final int TOP_ACTIVITIES = 5;

    /** One step's breakdown and idle split; both {@code null} for a step without a period. */
    public record Result(StepBreakdown breakdown, IdleBreakdown idle) {
        static final Result NONE = new Result(null, null);
    }

    private StepBreakdowns() {
    }

    /**
     * Per period (same order; {@code null} periods give {@link Result#NONE}) its breakdown, with
     * host ranges taken from the trace ({@link #hostRangesOf}).
     */
    public static Result[] of(RankTrace trace, ExposureAnalysis.Period[] periods) {
        return of(trace.device(), periods, hostRangesOf(trace));
    }

    public static Result[] of(DeviceIntervals dev, ExposureAnalysis.Period[] periods, HostRanges ranges) {
        IntervalSet.Builder kb = IntervalSet.builder();
        IntervalSet.Builder fb = IntervalSet.builder();
        IntervalSet.Builder cb = IntervalSet.builder();
        IntervalSet.Builder mb = IntervalSet.builder();
        int work = 0;
        for (int i = 0; i < dev.size(); i++) {
            DeviceKind kind = dev.kind(i);
            switch (kind) {
                case COMPUTE -> kb.add(dev.start(i), dev.end(i));
                case FUSED -> fb.add(dev.start(i), dev.end(i));
                case COMM -> cb.add(dev.start(i), dev.end(i));
                case MEMCPY, MEMSET -> mb.add(dev.start(i), dev.end(i));
                default -> {
                    continue;
                }
            }
            work++;
        }
        IntervalSet compute = kb.build();
        IntervalSet fusedAll = fb.build();
        IntervalSet commAll = cb.build();
        IntervalSet copyAll = mb.build();
        IntervalSet fused = fusedAll.subtract(compute);
        IntervalSet above = compute.union(fusedAll);
        IntervalSet comm = commAll.subtract(above);
        above = above.union(commAll);
        IntervalSet copy = copyAll.subtract(above);
        IntervalSet busy = above.union(copyAll);
        GapEnders enders = GapEnders.of(dev, busy, work);

        Result[] out = new Result[periods.length];
        for (int k = 0; k < periods.length; k++) {
            ExposureAnalysis.Period p = periods[k];
            if (p == null) {
                out[k] = Result.NONE;
                continue;
            }
            long s = p.startNs();
            long e = p.endNs();
            long computeNs = compute.lengthWithin(s, e);
            long fusedNs = fused.lengthWithin(s, e);
            long commNs = comm.lengthWithin(s, e);
            long copyNs = copy.lengthWithin(s, e);
            long idleNs = (e - s) - (computeNs + fusedNs + commNs + copyNs);
            out[k] = new Result(new StepBreakdown(computeNs, fusedNs, commNs, copyNs, idleNs),
                    idleSplit(dev, busy, enders, ranges, s, e));
        }
        return out;
    }

    /** The idle of {@code [s, e)} split by what ended each gap, host-bound time by host range. */
    private static IdleBreakdown idleSplit(DeviceIntervals dev, IntervalSet busy, GapEnders enders,
                                           HostRanges ranges, long s, long e) {
        long host = 0;
        long launched = 0;
        long unknown = 0;
        Map<String, Long> activity = new HashMap<>();
        // The busy run that ends at or after s: gaps inside [s, e) lie between consecutive runs.
        int run = busy.firstRunEndingAfter(s);
        long gapStart = run > 0 ? busy.end(run - 1) : Long.MIN_VALUE;
        while (true) {
            long gapEnd = run < busy.size() ? busy.start(run) : Long.MAX_VALUE;
            long from = Math.max(gapStart, s);
            long to = Math.min(gapEnd, e);
            if (from < to) {
                int ender = run < busy.size() ? enders.enderOf(run) : -1;
                long launch = ender >= 0 ? dev.launchNs(ender) : Time.UNKNOWN;
                if (!Time.isKnown(launch)) {
                    unknown += to - from;
                } else {
                    long hostEnd = Math.min(to, Math.max(from, launch));
                    host += hostEnd - from;
                    launched += to - hostEnd;
                    if (hostEnd > from) {
                        ranges.attribute(dev.launchThread(ender), from, hostEnd, activity);
                    }
                }
            }
            if (run >= busy.size() || busy.start(run) >= e) {
                break;
            }
            gapStart = busy.end(run);
            run++;
        }
        List<HostActivity> top = new ArrayList<>(activity.size());
        activity.forEach((name, ns) -> top.add(new HostActivity(name, ns)));
        top.sort(LARGEST_FIRST);
        return new IdleBreakdown(host, launched, unknown, top.subList(0, Math.min(TOP_ACTIVITIES, top.size())));
    }

    /** Largest first, ties by name (so a report never depends on hash order). */
    public static final Comparator<HostActivity> LARGEST_FIRST =
            Comparator.comparingLong(HostActivity::ns).reversed().thenComparing(HostActivity::name);

    /**
     * Per busy run, the work interval that starts at the run's start and was launched first (one
     * with a known launch before one without): what ended the idle gap before the run.
     */
    static final class GapEnders {
        private final int[] ender;

        private GapEnders(int[] ender) {
            this.ender = ender;
        }

        static GapEnders of(DeviceIntervals dev, IntervalSet busy, int workCount) {
            long[] starts = new long[workCount];
            int[] index = new int[workCount];
            int n = 0;
            for (int i = 0; i < dev.size(); i++) {
                if (StepPeriods.isWork(dev.kind(i)) && dev.end(i) > dev.start(i)) {
                    starts[n] = dev.start(i);
                    index[n] = i;
                    n++;
                }
            }
            int[] order = PrimitiveSort.indexesSortedBy(starts, n);
            int[] ender = new int[busy.size()];
            Arrays.fill(ender, -1);
            int j = 0;
            for (int run = 0; run < busy.size(); run++) {
                long runStart = busy.start(run);
                while (j < n && starts[order[j]] < runStart) {
                    j++;
                }
                int best = -1;
                while (j < n && starts[order[j]] == runStart) {
                    int i = index[order[j]];
                    if (best < 0 || launchedBefore(dev.launchNs(i), dev.launchNs(best))) {
                        best = i;
                    }
                    j++;
                }
                ender[run] = best;
            }
            return new GapEnders(ender);
        }

        private static boolean launchedBefore(long a, long b) {
            if (!Time.isKnown(a)) {
                return false;
            }
            return !Time.isKnown(b) || a < b;
        }

        int enderOf(int run) {
            return ender[run];
        }
    }

    /**
     * The host ranges the analysis attributes host-bound idle to: from the trace's host spans
     * (optimizer and autograd ranges; never the step range), its host annotations
     * ({@code record_function} labels that launched device work) and its other host ranges
     * ({@link RankTrace#hostRanges()}: host ops, annotations, NVTX ranges, as the reader kept them).
     */
    public static HostRanges hostRangesOf(RankTrace trace) {
        HostRanges.Builder b = HostRanges.builder();
        for (HostSpan span : trace.hostSpans()) {
            if (span.kind() != HostSpanKind.STEP) {
                b.add(span.threadId(), span.startNs(), span.endNs(), span.name());
            }
        }
        for (Annotation a : trace.annotations()) {
            if (!a.onDevice()) {
                b.add(a.threadId(), a.startNs(), a.endNs(), a.name());
            }
        }
        for (HostSpan span : trace.hostRanges()) {
            b.add(span.threadId(), span.startNs(), span.endNs(), span.name());
        }
        return b.build();
    }
}
