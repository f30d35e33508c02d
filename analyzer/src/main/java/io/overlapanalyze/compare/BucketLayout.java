package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.report.BucketReport;
import io.overlapanalyze.report.ChainLink;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gradient bucket structure of one run (metrics.md §10 "the structure"), over its aggregated
 * (rank, step) pairs: how many buckets a step reduces, their sizes, which one finishes last and
 * how long its reduction takes, and how the tail is attributed.
 *
 * <p>Steps of one run normally share one layout (DDP buckets are fixed after the first
 * iteration); the layout shown is the most common one, and {@code layoutSteps} says how many
 * steps have exactly it, so a reader sees when they do not.
 *
 * @param steps            aggregated (rank, step) pairs
 * @param stepsWithBuckets those with at least one gradient bucket
 * @param bucketsPerStep   median bucket count per step (over steps with buckets), or {@code null}
 * @param layout           bucket sizes in device-start order of the most common layout ({@code null}
 *                         entries: size unknown); empty when no step has buckets
 * @param layoutSteps      steps whose layout is exactly {@code layout}
 * @param layoutBytes      sum of the known sizes of {@code layout}, or {@code null} when none is known
 * @param lastBucketIndex  1-based position (by device start) of the bucket that ends last, most common
 *                         value; {@code null} when no step has buckets
 * @param lastBucketBytes  size of that bucket in the most common layout, or {@code null}
 * @param lastReduceNs     median duration of the last-ending bucket's reduction, or {@code null}
 * @param tailNs           median tail, or {@code null} when no step defines one
 * @param tailKinds        tail attribution → number of steps (steps with a defined tail)
 * @param tailKind         the most frequent attribution, or {@code null} when no step defines a tail
 * @param tailChainStep    "rank R STEP": a step with the most frequent attribution and the median tail
 *                         among those, whose chain is shown; {@code null} when none
 * @param tailChain        that step's critical-path chain, last collective first
 */
public record BucketLayout(int steps, int stepsWithBuckets, Long bucketsPerStep, List<Long> layout, int layoutSteps,
                           Long layoutBytes, Integer lastBucketIndex, Long lastBucketBytes, Long lastReduceNs,
                           Long tailNs, Map<TailKind, Integer> tailKinds, TailKind tailKind, String tailChainStep,
                           List<ChainLink> tailChain) {

    public BucketLayout {
        layout = java.util.Collections.unmodifiableList(new ArrayList<>(layout)); // may hold nulls
        tailKinds = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tailKinds));
        tailChain = List.copyOf(tailChain);
    }

    /** The structure of a run. */
    public static BucketLayout of(Run run, AnalysisOptions options) {
        record RankStep(int rank, StepReport step) {
        }
        List<RankStep> steps = new ArrayList<>();
        for (RankReport r : run.ranks()) {
            for (StepReport s : r.steps()) {
                if (io.overlapanalyze.analysis.TotalsCalculator.aggregated(s, options)) {
                    steps.add(new RankStep(r.rank(), s));
                }
            }
        }
        List<Long> counts = new ArrayList<>();
        Map<List<Long>, Integer> layouts = new LinkedHashMap<>();
        Map<Integer, Integer> lastIndexes = new LinkedHashMap<>();
        List<Long> lastDurations = new ArrayList<>();
        List<Long> tails = new ArrayList<>();
        Map<TailKind, Integer> kinds = new EnumMap<>(TailKind.class);
        for (RankStep rs : steps) {
            StepReport s = rs.step();
            List<BucketReport> buckets = s.gradBuckets();
            if (!buckets.isEmpty()) {
                counts.add((long) buckets.size());
                List<Long> sizes = new ArrayList<>(buckets.size());
                for (int i = 0; i < buckets.size(); i++) {
                    BucketReport b = buckets.get(i);
                    sizes.add(b.bytes());
                    if (b.last()) {
                        lastIndexes.merge(i + 1, 1, Integer::sum);
                        lastDurations.add(b.durationNs());
                    }
                }
                layouts.merge(sizes, 1, Integer::sum);
            }
            if (s.tailNs() != null) {
                tails.add(s.tailNs());
                kinds.merge(s.attribution().kind(), 1, Integer::sum);
            }
        }
        List<Long> layout = mostCommon(layouts, List.of());
        int layoutSteps = layouts.getOrDefault(layout, 0);
        Long layoutBytes = null;
        for (Long b : layout) {
            if (b != null) {
                layoutBytes = (layoutBytes == null ? 0 : layoutBytes) + b;
            }
        }
        Integer lastIndex = lastIndexes.isEmpty() ? null : mostCommon(lastIndexes, null);
        Long lastBytes = lastIndex != null && lastIndex <= layout.size() ? layout.get(lastIndex - 1) : null;
        TailKind kind = kinds.isEmpty() ? null : mostCommon(kinds, null);

        String chainStep = null;
        List<ChainLink> chain = List.of();
        if (kind != null) {
            List<RankStep> ofKind = new ArrayList<>();
            for (RankStep rs : steps) {
                if (rs.step().tailNs() != null && rs.step().attribution().kind() == kind) {
                    ofKind.add(rs);
                }
            }
            ofKind.sort(Comparator.comparingLong((RankStep rs) -> rs.step().tailNs()));
            RankStep median = ofKind.get((ofKind.size() - 1) / 2);
            chainStep = "rank " + median.rank() + " " + median.step().name();
            chain = median.step().attribution().chain();
        }
        return new BucketLayout(steps.size(), counts.size(), medianLong(counts), layout, layoutSteps, layoutBytes,
                lastIndex, lastBytes, medianLong(lastDurations), medianLong(tails), kinds, kind, chainStep, chain);
    }

    /** The key with the highest count; ties go to the first seen (map order). */
    private static <K> K mostCommon(Map<K, Integer> counts, K none) {
        K best = none;
        int bestCount = 0;
        for (Map.Entry<K, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    private static Long medianLong(List<Long> values) {
        if (values.isEmpty()) {
            return null;
        }
        long[] v = values.stream().mapToLong(Long::longValue).toArray();
        return Samples.ofLongs(MetricUnit.NS, v).median().longValue();
    }
}
