package io.overlapanalyze.render.html;

import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.timeline.StepUnions;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The page of a job whose traces were read on other machines: each of them computes, for its
 * rank, what {@link HtmlRenderer} needs of the trace ({@link #of}), and the machine that draws
 * the page indexes those ({@link TimelineIndex#add(RankReport, PrecomputedTimelines)}). The page
 * is then the one drawn with every trace at hand, byte for byte.
 */
public final class RemoteTimelines {
    private RemoteTimelines() {
    }

    /**
     * The steps of {@code rank} a page of a job of {@code ranksInJob} ranks is likely to draw:
     * its worst-tail and median steps, and its first steps with device work up to
     * {@code MAX_TIMELINES − ranksInJob} (see {@link TimelinePlan}). Under the byte limit a page
     * can still draw another; {@link #missing} names those.
     */
    public static Set<String> stepsThatMayBeDrawn(RankReport rank, int ranksInJob) {
        return TimelinePlan.stepsThatMayBeDrawn(rank, ranksInJob);
    }

    /**
     * One rank's timelines where its trace is: every step's drawing size, and the unions of the
     * steps named in {@code send}.
     */
    public static PrecomputedTimelines of(RankTrace trace, RankReport report, Set<String> send) {
        Map<String, Integer> chars = new LinkedHashMap<>();
        Map<String, StepUnions> unions = new HashMap<>();
        for (Map.Entry<String, StepTimeline> e : TimelineIndex.timelinesOf(trace, report).entrySet()) {
            chars.put(e.getKey(), TimelineSvg.render(e.getValue()).length());
            if (send.contains(e.getKey())) {
                unions.put(e.getKey(), StepUnions.of(e.getValue()));
            }
        }
        return new PrecomputedTimelines(chars, unions);
    }

    /**
     * The steps the page of {@code report} draws whose unions {@code index} does not hold, by
     * rank (empty: the page can be drawn). Fetch those and add them before rendering.
     */
    public static Map<RankReport, Set<String>> missing(AnalysisReport report, TimelineIndex index) {
        return TimelinePlan.of(report, index, TimelinePlan.MAX_TIMELINES, TimelinePlan.MAX_BYTES).missing();
    }
}
