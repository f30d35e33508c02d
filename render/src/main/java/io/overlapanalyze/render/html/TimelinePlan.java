package io.overlapanalyze.render.html;

import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Which step timelines the page draws, so that a job of hundreds of ranks and steps still gives a
 * file of a few megabytes that opens at once. Steps are drawn in priority order until either
 * limit is reached: first the step with the longest tail of every rank, then every rank's median
 * step, then the rest in rank and step order. Every step keeps its row in the tables, and the
 * heatmaps and charts cover all of them; the page says how many timelines it left out.
 *
 * <p>A step is known by its rank's position in the report and its own in the rank's report, and the
 * choice is made from each rank's {@link PageRank} (the sizes of its drawings): no rank's full
 * report is held for it, and the drawings are made when a rank's section is written.
 */
final class TimelinePlan {
    /** Most timelines one page draws. */
    static final int MAX_TIMELINES = 300;
    /** Most bytes of timeline SVG one page holds. */
    static final long MAX_BYTES = 2_500_000;

    /** The ranks' records in the report, for {@link #missing()} and {@link #drawnOf(RankReport)}. */
    private final List<RankReport> held;
    /** By rank position: the steps drawn, and the featured ones (worst and median). */
    private final BitSet[] drawn;
    private final BitSet[] featured;
    /** Steps chosen whose unions are not at hand, by rank position, in the order chosen. */
    private final Map<Integer, Set<String>> missing = new LinkedHashMap<>();
    private int chosen;
    private int candidates;

    private TimelinePlan(List<RankReport> held) {
        this.held = held;
        this.drawn = new BitSet[held.size()];
        this.featured = new BitSet[held.size()];
        for (int i = 0; i < held.size(); i++) {
            drawn[i] = new BitSet();
            featured[i] = new BitSet();
        }
    }

    /** The plan of {@code report}'s page, every rank's full report in the report and its timelines in {@code index}. */
    static TimelinePlan of(AnalysisReport report, TimelineIndex index, int maxTimelines, long maxBytes) {
        return of(PageJob.inReport(report, index).ranks(), report.ranks(), maxTimelines, maxBytes);
    }

    /**
     * @param ranks what the page reads of each rank, in the report's order
     * @param held  the report's rank records, in the same order
     */
    static TimelinePlan of(List<PageRank> ranks, List<RankReport> held, int maxTimelines, long maxBytes) {
        TimelinePlan plan = new TimelinePlan(held);
        // Every rank's worst step, then every rank's median, then the rest: each step once.
        long bytes = 0;
        for (ToIntFunction<PageRank> featured : List.<ToIntFunction<PageRank>>of(PageRank::worst, PageRank::median)) {
            for (int i = 0; i < ranks.size(); i++) {
                int step = featured.applyAsInt(ranks.get(i));
                if (step >= 0 && !plan.featured[i].get(step)) {
                    plan.featured[i].set(step);
                    bytes = plan.consider(ranks, i, step, bytes, maxTimelines, maxBytes);
                }
            }
        }
        for (int i = 0; i < ranks.size(); i++) {
            for (int s = 0; s < ranks.get(i).steps(); s++) {
                if (!plan.featured[i].get(s)) {
                    bytes = plan.consider(ranks, i, s, bytes, maxTimelines, maxBytes);
                }
            }
        }
        return plan;
    }

    /** Draws the step when it has a timeline and fits; returns the bytes drawn so far. */
    private long consider(List<PageRank> ranks, int rank, int step, long bytes, int maxTimelines, long maxBytes) {
        PageRank.Timelines t = ranks.get(rank).timelines();
        if (!t.has(step)) {
            return bytes;
        }
        candidates++;
        if (chosen >= maxTimelines || bytes >= maxBytes) {
            return bytes;
        }
        // Without the unions (they stayed where the trace was read), the drawing's size was
        // computed there: the choice is the same, and the step is named as missing.
        long length = t.chars(step);
        if (bytes + length > maxBytes && chosen > 0) {
            return bytes;
        }
        chosen++;
        drawn[rank].set(step);
        if (!t.held(step)) {
            missing.computeIfAbsent(rank, k -> new LinkedHashSet<>()).add(ranks.get(rank).names()[step]);
        }
        return bytes + length;
    }

    /** Steps chosen for drawing whose unions the index does not hold, by rank position. */
    Map<Integer, Set<String>> missingByPosition() {
        return missing;
    }

    /** Steps chosen for drawing whose unions the index does not hold, by the report's rank record. */
    Map<RankReport, Set<String>> missing() {
        Map<RankReport, Set<String>> out = new IdentityHashMap<>();
        missing.forEach((i, steps) -> out.put(held.get(i), steps));
        return out;
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

    /** Whether the step at {@code step} of the rank at {@code rank} is drawn. */
    boolean isDrawn(int rank, int step) {
        return drawn[rank].get(step);
    }

    boolean isFeatured(int rank, int step) {
        return featured[rank].get(step);
    }

    int drawn() {
        return chosen;
    }

    /** Steps that have device work and so could have been drawn. */
    int candidates() {
        return candidates;
    }

    /** The drawn steps of the rank at {@code rank}, whose full report is {@code full}, in step order. */
    List<StepReport> drawnOf(int rank, RankReport full) {
        Set<StepReport> seen = new LinkedHashSet<>();
        List<StepReport> steps = full.steps();
        for (int s = drawn[rank].nextSetBit(0); s >= 0; s = drawn[rank].nextSetBit(s + 1)) {
            seen.add(steps.get(s));
        }
        return new ArrayList<>(seen);
    }

    /** The drawn steps of a rank record of the report (holding its full report), in step order. */
    List<StepReport> drawnOf(RankReport rank) {
        for (int i = 0; i < held.size(); i++) {
            if (held.get(i) == rank) {
                return drawnOf(i, rank);
            }
        }
        throw new IllegalArgumentException("rank " + rank.rank() + " is not a rank of this page");
    }
}
