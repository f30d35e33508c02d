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
        for (StepReport s : ordered) {
            StepTimeline t = index == null ? null : index.of(rankOf.get(s), s);
            if (t == null) {
                continue;
            }
            plan.candidates++;
            if (plan.svg.size() >= maxTimelines || bytes >= maxBytes) {
                continue;
            }
            String drawn = TimelineSvg.render(t);
            if (bytes + drawn.length() > maxBytes && !plan.svg.isEmpty()) {
                continue;
            }
            plan.svg.put(s, drawn);
            bytes += drawn.length();
        }
        return plan;
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
