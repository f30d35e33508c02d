package io.overlapanalyze.render.html;

import io.overlapanalyze.render.Explanations;
import io.overlapanalyze.render.TextRenderer;
import io.overlapanalyze.render.timeline.StepTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.report.Totals;

import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * What the HTML page reads of every rank, not only in the rank's own section (which reads its full
 * report, one rank at a time): its line in the summary table and the verdict, its row of the rank ×
 * step heatmaps and its values in the per-step chart, and what {@link TimelinePlan} chooses the drawn
 * steps from. Made from the rank's full report as revised across ranks, so a job whose full reports are
 * in a spill draws the page of one that holds them.
 *
 * <p>Per step it keeps a few primitives, by the step's position in the rank's report: the name (shared
 * across ranks where the caller shares it), tail and exposed communication (two longs), whether it has
 * device work, and whether it has a timeline and its drawing's size: about 24 bytes and a few bits a
 * rank × step. No {@link StepReport} is kept.
 *
 * @param rank              rank id
 * @param heading           {@link TextRenderer#rankHeading}
 * @param source            the input it was read from
 * @param countedSteps      steps its totals count (0 without totals)
 * @param medians           its totals' medians, or {@code null}
 * @param dominantCause     {@link RankStats#dominantCause}, or {@code null}
 * @param tailCauses        how many steps with a tail have each cause, in the order the causes first
 *                          appear in the rank's steps
 * @param waitsOutsideInput {@link Explanations#waitsOutsideInput}
 * @param fused             some step has a fused kernel
 * @param names             every step's name, in the report's order
 * @param tails             every step's tail ({@link RankStats#tail}: −1 when undefined)
 * @param exposed           every step's exposed communication
 * @param device            the steps with device work (a device start)
 * @param worst             {@link RankStats#worstStep}'s position, or −1
 * @param median            {@link RankStats#medianStep}'s position, or −1
 * @param timelines         which steps have a timeline and how big its drawing is
 */
record PageRank(int rank, String heading, String source, int countedSteps, Totals.Medians medians,
                TailKind dominantCause, Map<TailKind, Integer> tailCauses, boolean waitsOutsideInput, boolean fused,
                String[] names, long[] tails, long[] exposed, BitSet device, int worst, int median,
                Timelines timelines) {

    /**
     * Which steps of a rank have a timeline, and the size {@link TimelinePlan} counts for each: the
     * length of its drawing where the index holds its unions, else the size computed where the trace
     * was read ({@link TimelineIndex#drawnChars}).
     */
    interface Timelines {
        /** Whether the step at this position has a timeline ({@link TimelineIndex#has}). */
        boolean has(int step);

        /** Whether the step's unions are at hand: it can be drawn here (else it is missing). */
        boolean held(int step);

        /** The size the plan counts for a step that {@link #has} a timeline. */
        long chars(int step);
    }

    /**
     * The rank of a full report, its timelines looked up in {@code index} when the plan asks (the
     * index and the report are held as long as this is).
     *
     * @param names shares each step name (the same across ranks) where the caller keeps many ranks
     */
    static PageRank of(RankReport full, TimelineIndex index, UnaryOperator<String> names) {
        List<StepReport> steps = full.steps();
        int n = steps.size();
        String[] name = new String[n];
        long[] tail = new long[n];
        long[] exposed = new long[n];
        BitSet device = new BitSet(n);
        Map<TailKind, Integer> causes = new LinkedHashMap<>();
        boolean fused = false;
        StepReport worst = RankStats.worstStep(full);
        StepReport median = RankStats.medianStep(full);
        int worstAt = -1;
        int medianAt = -1;
        for (int i = 0; i < n; i++) {
            StepReport s = steps.get(i);
            name[i] = names.apply(s.name());
            tail[i] = RankStats.tail(s);
            exposed[i] = s.exposedCommNs();
            if (s.deviceStartNs() != null) {
                device.set(i);
            }
            if (s.tailNs() != null && s.tailNs() > 0) {
                causes.merge(s.attribution().kind(), 1, Integer::sum);
            }
            fused |= s.hasFused();
            // Found by identity, as the plan found them among the report's steps.
            if (s == worst && worstAt < 0) {
                worstAt = i;
            }
            if (s == median && medianAt < 0) {
                medianAt = i;
            }
        }
        Totals t = full.totals();
        return new PageRank(full.rank(), TextRenderer.rankHeading(full), full.source(), t == null ? 0 : t.steps(),
                t == null ? null : t.medians(), RankStats.dominantCause(full), Collections.unmodifiableMap(causes),
                Explanations.waitsOutsideInput(full), fused, name, tail, exposed, device, worstAt, medianAt,
                new InIndex(index, full));
    }

    /**
     * This rank with what the plan reads first of its timelines computed now, so that neither the index
     * nor the report is held: which steps have one, which are held, the sizes computed where the trace
     * was read, and the drawings' sizes of its worst and median steps (every rank's come first in the
     * plan). The other held steps' drawings are measured when the plan first asks for one (it rarely
     * gets past the featured steps of a big job), all of the rank's at once, from {@code again}: the
     * rank's timelines as {@link #of} gives them, on its full report read again.
     */
    PageRank computed(Supplier<Timelines> again) {
        int n = names.length;
        int[] chars = new int[n];
        BitSet held = new BitSet(n);
        for (int i = 0; i < n; i++) {
            if (!timelines.has(i)) {
                chars[i] = Computed.NONE;
                continue;
            }
            boolean h = timelines.held(i);
            if (h) {
                held.set(i);
            }
            chars[i] = !h || i == worst || i == median ? Math.toIntExact(timelines.chars(i)) : Computed.LATER;
        }
        return new PageRank(rank, heading, source, countedSteps, medians, dominantCause, tailCauses,
                waitsOutsideInput, fused, names, tails, exposed, device, worst, median,
                new Computed(chars, held, again));
    }

    /** Steps in the report. */
    int steps() {
        return names.length;
    }

    /** Looked up in the index when asked: the drawing of a held step is made to be measured. */
    private record InIndex(TimelineIndex index, RankReport full) implements Timelines {
        @Override
        public boolean has(int step) {
            return index.has(full, full.steps().get(step));
        }

        @Override
        public boolean held(int step) {
            return index.of(full, full.steps().get(step)) != null;
        }

        @Override
        public long chars(int step) {
            StepReport s = full.steps().get(step);
            StepTimeline t = index.of(full, s);
            return t != null ? TimelineSvg.render(t).length() : index.drawnChars(full, s);
        }
    }

    /**
     * Sizes computed once: {@link #NONE} for a step without a timeline, {@link #LATER} for a held step
     * not measured yet (measured with the rank's others on first ask; the plan asks from one thread).
     */
    private static final class Computed implements Timelines {
        static final int NONE = -1;
        static final int LATER = -2;
        private final int[] chars;
        private final BitSet heldSteps;
        private Supplier<Timelines> again;

        Computed(int[] chars, BitSet heldSteps, Supplier<Timelines> again) {
            this.chars = chars;
            this.heldSteps = heldSteps;
            this.again = again;
        }

        @Override
        public boolean has(int step) {
            return chars[step] != NONE;
        }

        @Override
        public boolean held(int step) {
            return heldSteps.get(step);
        }

        @Override
        public long chars(int step) {
            if (chars[step] == LATER) {
                Timelines t = again.get();
                for (int i = 0; i < chars.length; i++) {
                    if (chars[i] == LATER) {
                        chars[i] = Math.toIntExact(t.chars(i));
                    }
                }
                again = null;
            }
            return chars[step];
        }
    }
}
