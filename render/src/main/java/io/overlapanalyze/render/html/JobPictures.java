package io.overlapanalyze.render.html;

import io.overlapanalyze.crossrank.RankInput;
import io.overlapanalyze.render.timeline.PrecomputedTimelines;
import io.overlapanalyze.render.timeline.TerminalTimeline;
import io.overlapanalyze.render.timeline.TimelineIndex;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What the pictures of a job need of each rank's model, taken while the model is at hand and kept
 * when it is dropped (the job path: {@code AnalysisPipeline.analyseJob}, and a Spark task): the
 * {@link PrecomputedTimelines} of the steps the HTML page may draw ({@link RemoteTimelines}) and,
 * when the terminal timeline may be drawn, of every step. The pictures drawn from them are the ones
 * drawn with every model at hand, byte for byte.
 *
 * @param pageInputs how many inputs the job has when an HTML page is drawn; 0 without a page
 * @param terminal   whether the text report's timeline is asked for ({@code TRUE}), refused
 *                   ({@code FALSE}), left to {@link TerminalTimeline#drawnByDefault} ({@code null});
 *                   {@code FALSE} also when the report is not text
 */
public record JobPictures(int pageInputs, Boolean terminal) {
    /** No picture at all: nothing is kept. */
    public static JobPictures none() {
        return new JobPictures(0, Boolean.FALSE);
    }

    /** Whether any picture may be drawn. */
    public boolean any() {
        return pageInputs > 0 || !Boolean.FALSE.equals(terminal);
    }

    /**
     * What to keep of one rank (its report as analysed alone, its model): {@code null} when no
     * picture can draw any of its steps.
     */
    public PrecomputedTimelines keep(RankInput full) {
        Set<String> send = new LinkedHashSet<>();
        if (pageInputs > 0) {
            send.addAll(RemoteTimelines.stepsThatMayBeDrawn(full.report(), pageInputs));
        }
        // By default the terminal draws only when no rank has more than AUTO_STEPS_PER_RANK steps:
        // a rank with more rules it out for the whole job, so it need keep nothing for it.
        boolean terminalSteps = Boolean.TRUE.equals(terminal) || terminal == null
                && full.report().steps().size() <= TerminalTimeline.AUTO_STEPS_PER_RANK;
        if (terminalSteps) {
            for (StepReport s : full.report().steps()) {
                send.add(s.name());
            }
        }
        if (pageInputs <= 0 && !terminalSteps) {
            return null;
        }
        return RemoteTimelines.of(full.trace(), full.report(), send);
    }

    /**
     * The index the pictures draw from: each rank of {@code ranks} (the reports the pictures walk)
     * with what was kept of it ({@code kept}, same order; {@code null} entries: nothing).
     */
    public static TimelineIndex index(List<RankReport> ranks, List<PrecomputedTimelines> kept) {
        TimelineIndex index = new TimelineIndex();
        for (int i = 0; i < ranks.size(); i++) {
            if (kept.get(i) != null) {
                index.add(ranks.get(i), kept.get(i));
            }
        }
        return index;
    }

    /**
     * Completes {@code index} for the page of {@code report}: the rare step the page draws whose
     * unions were not kept (the byte limit let in a later, smaller step) is taken from the rank
     * read again ({@code readAgain}: the rank's timelines for the steps named, from its model).
     *
     * @param ranks the ranks in the order of {@code kept}
     */
    public static void completeForPage(AnalysisReport report, TimelineIndex index, List<RankReport> ranks,
                                       List<PrecomputedTimelines> kept,
                                       Function<Map<RankReport, Set<String>>, Map<RankReport, PrecomputedTimelines>> readAgain) {
        Map<RankReport, Set<String>> missing = RemoteTimelines.missing(report, index);
        if (missing.isEmpty()) {
            return;
        }
        Map<RankReport, PrecomputedTimelines> keptOf = new IdentityHashMap<>();
        for (int i = 0; i < ranks.size(); i++) {
            keptOf.put(ranks.get(i), kept.get(i));
        }
        readAgain.apply(missing).forEach((rank, more) -> {
            PrecomputedTimelines had = keptOf.get(rank);
            index.add(rank, had == null ? more : had.withUnions(more.unions()));
        });
    }

    /**
     * How {@link #completeForPage} reads ranks again: each rank of {@code inputs} (what the job path
     * gave: a digest's trace keeps its source) is found among the ranks {@code readSource} gives for
     * its source (read and analysed anew, in the order the first read gave them), and its timelines
     * for the steps asked are computed from that model.
     */
    public static Function<Map<RankReport, Set<String>>, Map<RankReport, PrecomputedTimelines>> readingAgain(
            List<RankInput> inputs, Function<String, List<RankInput>> readSource) {
        Map<String, Integer> seen = new HashMap<>();
        Map<RankReport, String> sourceOf = new IdentityHashMap<>();
        Map<RankReport, Integer> ordinalOf = new IdentityHashMap<>();
        for (RankInput in : inputs) {
            String source = in.trace().source();
            sourceOf.put(in.report(), source);
            ordinalOf.put(in.report(), seen.merge(source, 1, Integer::sum) - 1);
        }
        return missing -> {
            Map<String, List<RankInput>> read = new HashMap<>();
            Map<RankReport, PrecomputedTimelines> out = new IdentityHashMap<>();
            missing.forEach((rank, steps) -> {
                String source = sourceOf.get(rank);
                List<RankInput> again = read.computeIfAbsent(source, readSource);
                int k = ordinalOf.get(rank);
                if (k >= again.size()) {
                    throw new IllegalStateException(source + ": read again, it gave " + again.size()
                            + " ranks, fewer than the first time");
                }
                RankInput full = again.get(k);
                out.put(rank, RemoteTimelines.of(full.trace(), full.report(), steps));
            });
            return out;
        };
    }

    /** The reports of {@code inputs}, in order. */
    public static List<RankReport> reportsOf(List<RankInput> inputs) {
        List<RankReport> out = new ArrayList<>(inputs.size());
        for (RankInput in : inputs) {
            out.add(in.report());
        }
        return out;
    }
}
