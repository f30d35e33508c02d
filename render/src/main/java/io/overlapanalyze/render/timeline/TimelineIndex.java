package io.overlapanalyze.render.timeline;

import io.overlapanalyze.analysis.IntervalSet;
import io.overlapanalyze.analysis.StepAssigner;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The per-step device unions of every analysed rank, looked up by the report records the
 * renderers walk. Reports carry numbers only; the pictures need the intervals, so the CLI keeps
 * each {@link RankTrace} next to its {@link RankReport} and indexes them here once.
 *
 * <p>Steps are split with the analyzer's own {@link StepAssigner} (work belongs to the step whose
 * host span launched it), not by clipping to the step's device window: a kernel launched in step
 * 4 that runs into step 5's window is drawn in step 4, exactly as it was counted.
 *
 * <p>A rank can also be added without its trace, from {@link PrecomputedTimelines} computed where
 * the trace was read (a distributed run): the index then knows which steps have a timeline and
 * the size of each drawing, and holds the unions of the steps that were sent.
 */
public final class TimelineIndex {
    private final Map<RankReport, RankTrace> traces = new IdentityHashMap<>();
    private final Map<RankReport, Map<String, StepTimeline>> byRank = new IdentityHashMap<>();
    private final Map<RankReport, PrecomputedTimelines> precomputed = new IdentityHashMap<>();
    private final Map<RankReport, Map<String, StepReport>> firstSteps = new IdentityHashMap<>();

    /** The index of every rank read, each trace next to its report. */
    public static TimelineIndex of(java.util.Collection<io.overlapanalyze.crossrank.RankInput> inputs) {
        TimelineIndex index = new TimelineIndex();
        for (io.overlapanalyze.crossrank.RankInput in : inputs) {
            index.add(in.trace(), in.report());
        }
        return index;
    }

    /**
     * Adds one rank: its trace and the report analysed from it (possibly narrowed by
     * {@code --steps}). The unions are built on first use, so a run that draws nothing pays nothing.
     */
    public TimelineIndex add(RankTrace trace, RankReport report) {
        traces.put(report, trace);
        precomputed.remove(report);
        firstSteps.remove(report);
        byRank.remove(report);
        return this;
    }

    /**
     * Adds one rank from timelines computed elsewhere ({@link #timelinesOf} on the rank's trace and
     * a report equal to {@code report}); replaces what the index held for it.
     */
    public TimelineIndex add(RankReport report, PrecomputedTimelines timelines) {
        traces.remove(report);
        precomputed.put(report, timelines);
        Map<String, StepReport> first = firstByName(report);
        firstSteps.put(report, first);
        Map<String, StepTimeline> steps = new HashMap<>();
        timelines.unions().forEach((name, u) -> {
            StepReport s = first.get(name);
            if (s != null && timelines.drawnChars().containsKey(name)) {
                steps.put(name, u.on(report, s));
            }
        });
        byRank.put(report, steps);
        return this;
    }

    /** Forgets a rank: what was added for {@code report}, and what was built from it. */
    public TimelineIndex remove(RankReport report) {
        traces.remove(report);
        precomputed.remove(report);
        firstSteps.remove(report);
        byRank.remove(report);
        return this;
    }

    /**
     * Every step of {@code report} that has a timeline, by name, built from {@code trace} (the
     * trace {@code report} was analysed from): what {@link #of} gives for the rank.
     */
    public static Map<String, StepTimeline> timelinesOf(RankTrace trace, RankReport report) {
        return index(trace, report);
    }

    private static Map<String, StepReport> firstByName(RankReport report) {
        Map<String, StepReport> wanted = new HashMap<>();
        for (StepReport s : report.steps()) {
            wanted.putIfAbsent(s.name(), s);
        }
        return wanted;
    }

    private static Map<String, StepTimeline> index(RankTrace trace, RankReport report) {
        Map<String, StepTimeline> steps = new HashMap<>();
        if (trace.hasDeviceActivity()) {
            Map<String, StepReport> wanted = firstByName(report);
            for (StepAssigner.Step step : StepAssigner.assign(trace).steps()) {
                StepReport s = wanted.get(step.name());
                if (s != null && s.deviceStartNs() != null && !steps.containsKey(step.name())) {
                    steps.put(step.name(), build(trace.device(), step.intervals(), report, s));
                }
            }
        }
        return steps;
    }

    /** The trace a rank's report was analysed from, or {@code null}. */
    public RankTrace traceOf(RankReport rank) {
        return traces.get(rank);
    }

    /** The timeline of a step, or {@code null} when the step has no device work (or the rank is unknown). */
    public StepTimeline of(RankReport rank, StepReport step) {
        RankTrace trace = traces.get(rank);
        if (trace == null && !precomputed.containsKey(rank)) {
            return null;
        }
        Map<String, StepTimeline> steps = byRank.computeIfAbsent(rank, r -> index(trace, r));
        StepTimeline t = steps.get(step.name());
        return t != null && t.step() == step ? t : null;
    }

    /**
     * Whether the step has a timeline: {@link #of} is not {@code null}, or, for a rank added from
     * {@link PrecomputedTimelines}, the step has one whose unions were not sent.
     */
    public boolean has(RankReport rank, StepReport step) {
        if (of(rank, step) != null) {
            return true;
        }
        PrecomputedTimelines p = precomputed.get(rank);
        return p != null && p.drawnChars().containsKey(step.name()) && firstSteps.get(rank).get(step.name()) == step;
    }

    /**
     * The length of the step's drawing as computed where the trace was read, or {@code null} when
     * the rank was added with its trace (or the step has no timeline).
     */
    public Integer drawnChars(RankReport rank, StepReport step) {
        PrecomputedTimelines p = precomputed.get(rank);
        return p == null || !has(rank, step) ? null : p.drawnChars().get(step.name());
    }

    static StepTimeline build(DeviceIntervals dev, int[] intervals, RankReport rank, StepReport step) {
        IntervalSet.Builder k = IntervalSet.builder();
        IntervalSet.Builder c = IntervalSet.builder();
        IntervalSet.Builder m = IntervalSet.builder();
        IntervalSet.Builder f = IntervalSet.builder();
        for (int i : intervals) {
            switch (dev.kind(i)) {
                case COMPUTE -> k.add(dev.start(i), dev.end(i));
                case COMM -> c.add(dev.start(i), dev.end(i));
                case MEMCPY, MEMSET -> m.add(dev.start(i), dev.end(i));
                case FUSED -> f.add(dev.start(i), dev.end(i));
                default -> {
                    // SYNC and OTHER are neither compute nor communication (metrics.md §1): not drawn.
                }
            }
        }
        IntervalSet compute = k.build();
        IntervalSet comm = c.build();
        return new StepTimeline(rank, step, compute, comm, m.build(), comm.subtract(compute), f.build());
    }
}
