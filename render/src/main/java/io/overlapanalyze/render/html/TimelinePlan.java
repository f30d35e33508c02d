package io.overlapanalyze.render.html;

import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which step timelines the page draws, so that a job of hundreds of ranks and steps still gives a
 * file of a few megabytes that opens at once. Steps are drawn in priority order until either
 * limit is reached: first the step with the longest tail of every rank, then every rank's median
 * step, then the rest in rank and step order. Every step keeps its row in the tables, and the
 * heatmaps and charts cover all of them; the page says how many timelines it left out.
 */
final class TimelinePlan {
    /** Most timelines one page draws. */
    static final int MAX_TIMELINES = 300;
    /** Most bytes of timeline SVG one page holds. */
    static final long MAX_BYTES = 2_500_000;

    private final Map<StepReport, String> svg = new IdentityHashMap<>();
    private final Set<StepReport> featured = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<RankReport, Set<String>> missing = new IdentityHashMap<>();
    private int candidates;

    private TimelinePlan() {
    }

    static TimelinePlan of(AnalysisReport report, TimelineIndex index, int maxTimelines, long maxBytes) {
        TimelinePlan plan = new TimelinePlan();
        List<RankReport> ranks = report.ranks();
        Map<StepReport, RankReport> rankOf = new IdentityHashMap<>();
        Set<StepReport> order = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        List<StepReport> ordered = new ArrayList<>();
        for (RankReport r : ranks) {
            StepReport worst = RankStats.worstStep(r);
            if (worst != null && order.add(worst)) {
                ordered.add(worst);
                plan.featured.add(worst);
            }
        }
        for (RankReport r : ranks) {
            StepReport median = RankStats.medianStep(r);
            if (median != null && order.add(median)) {
                ordered.add(median);
                plan.featured.add(median);
            }
        }
        for (RankReport r : ranks) {
            for (StepReport s : r.steps()) {
                rankOf.put(s, r);
                if (order.add(s)) {
                    ordered.add(s);
                }
            }
        }
        long bytes = 0;
        int chosen = 0;
        for (StepReport s : ordered) {
            RankReport r = rankOf.get(s);
            if (index == null || !index.has(r, s)) {
                continue;
            }
            plan.candidates++;
            if (chosen >= maxTimelines || bytes >= maxBytes) {
                continue;
            }
            // Without the unions (they stayed where the trace was read), the drawing's size was
            // computed there: the choice is the same, and the step is named as missing.
            StepTimeline t = index.of(r, s);
            String drawn = t == null ? null : TimelineSvg.render(t);
            long length = drawn != null ? drawn.length() : index.drawnChars(r, s);
            if (bytes + length > maxBytes && chosen > 0) {
                continue;
            }
            chosen++;
            bytes += length;
            if (drawn != null) {
                plan.svg.put(s, drawn);
            } else {
                plan.missing.computeIfAbsent(r, k -> new LinkedHashSet<>()).add(s.name());
            }
        }
        return plan;
    }

    /** Steps chosen for drawing whose unions the index does not hold, by rank. */
    Map<RankReport, Set<String>> missing() {
        return missing;
    }

    /**
     * The steps of {@code rank} that a page may draw, whatever the other ranks of a job of
     * {@code ranksInJob} ranks are, as far as the count limit goes: its worst-tail and median
     * steps (drawn before any other rank's remaining steps) and its first steps with device work
     * up to {@link #MAX_TIMELINES} − {@code ranksInJob} (every rank with device work puts at
     * least its worst step ahead of them; a rank's worst and median may be one step). The byte
     * limit can let a later step in when an earlier one is too big to fit, so this is a guess, not
     * a bound: {@link RemoteTimelines#missing} says what a page still lacks.
     */
    static Set<String> stepsThatMayBeDrawn(RankReport rank, int ranksInJob) {
        return stepsThatMayBeDrawn(rank, ranksInJob, MAX_TIMELINES);
    }

    static Set<String> stepsThatMayBeDrawn(RankReport rank, int ranksInJob, int maxTimelines) {
        Set<String> steps = new LinkedHashSet<>();
        StepReport worst = RankStats.worstStep(rank);
        StepReport median = RankStats.medianStep(rank);
        if (worst != null) {
            steps.add(worst.name());
        }
        if (median != null) {
            steps.add(median.name());
        }
        int more = Math.max(0, maxTimelines - ranksInJob);
        for (StepReport s : rank.steps()) {
            if (more == 0) {
                break;
            }
            if (s.deviceStartNs() != null && s != worst && s != median) {
                steps.add(s.name());
                more--;
            }
        }
        return steps;
    }

    /** The SVG of a step, or {@code null} when it is not drawn. */
    String svgOf(StepReport step) {
        return svg.get(step);
    }

    boolean isFeatured(StepReport step) {
        return featured.contains(step);
    }

    int drawn() {
        return svg.size();
    }

    /** Steps that have device work and so could have been drawn. */
    int candidates() {
        return candidates;
    }

    /** The drawn steps of a rank, in step order. */
    List<StepReport> drawnOf(RankReport rank) {
        Set<StepReport> seen = new LinkedHashSet<>();
        for (StepReport s : rank.steps()) {
            if (svg.containsKey(s)) {
                seen.add(s);
            }
        }
        return new ArrayList<>(seen);
    }
}
