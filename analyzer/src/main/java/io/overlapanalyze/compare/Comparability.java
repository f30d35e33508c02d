package io.overlapanalyze.compare;

import io.overlapanalyze.analysis.AnalysisOptions;
import io.overlapanalyze.report.BucketReport;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether two runs can be compared at all (metrics.md §10), before any median is: rank 3 of 8 on
 * one machine against rank 1 of 2 on another is two jobs, and their step times say nothing about a
 * change. JSON field names are a contract.
 *
 * <p>Each aspect both reports record is compared (a world size a side does not know is not); the score
 * is the share of them that match (1.0: all). The job's shape (world size, device model, the number of
 * ranks read, the steps' names with their numbers taken out) must
 * match for the runs to be comparable; the gradient collectives of a step (type and bytes) may
 * differ, which is what a bucket-size change does, and only lower the score.
 *
 * @param score       matching aspects / compared aspects, in [0, 1]
 * @param comparable  the job's shape matches (the differences, if any, are in collectives only)
 * @param differences each aspect that differs, in words with both values ("world size: 8 vs 2",
 *                    "device model: NVIDIA A100-SXM4-80GB vs Tesla V100-SXM2-16GB")
 * @param compared    the aspects compared, in order
 * @param notCompared the §10 aspects not compared: not recorded in reports, or unknown on a side
 */
public record Comparability(double score, boolean comparable, List<String> differences, List<String> compared,
                            List<String> notCompared) {
    public Comparability {
        differences = List.copyOf(differences);
        compared = List.copyOf(compared);
        notCompared = List.copyOf(notCompared);
    }

    /** Compares the shapes of {@code a} and {@code b} over their aggregated steps. */
    public static Comparability of(Run a, Run b, AnalysisOptions options) {
        List<String> differences = new ArrayList<>();
        List<String> compared = new ArrayList<>();
        List<String> notCompared = new ArrayList<>();
        int same = 0;
        boolean shape = true;
        Set<Integer> worldA = worldSizes(a);
        Set<Integer> worldB = worldSizes(b);
        if (worldA.isEmpty() || worldB.isEmpty()) {
            // Unknown is not different: a trace (or an older summary) that does not say is compared on the rest.
            notCompared.add("worldSize");
        } else {
            compared.add("worldSize");
            if (worldA.equals(worldB)) {
                same++;
            } else {
                shape = false;
                differences.add("world size: " + show(worldA) + " vs " + show(worldB));
            }
        }
        Set<String> modelsA = deviceModels(a);
        Set<String> modelsB = deviceModels(b);
        if (modelsA.isEmpty() || modelsB.isEmpty()) {
            // A side whose traces do not list their device (or a summary written before it was recorded).
            notCompared.add("deviceModel");
        } else {
            compared.add("deviceModel");
            if (modelsA.equals(modelsB)) {
                same++;
            } else {
                // Step times on an A100 and on a V100 differ by the hardware, not by the change under test.
                shape = false;
                differences.add("device model: " + show(modelsA) + " vs " + show(modelsB));
            }
        }
        compared.add("ranks");
        Set<Integer> ranksA = rankIds(a);
        Set<Integer> ranksB = rankIds(b);
        // The number of ranks read (§10): rank 0 against rank 1 of one job is a fair comparison, 1 against 4 is not.
        if (ranksA.size() == ranksB.size()) {
            same++;
        } else {
            shape = false;
            differences.add("ranks read: " + ranksA.size() + " (" + show(ranksA) + ") vs " + ranksB.size() + " ("
                    + show(ranksB) + ")");
        }
        compared.add("stepNames");
        Set<String> stepsA = stepNames(a, options);
        Set<String> stepsB = stepNames(b, options);
        if (stepsA.equals(stepsB)) {
            same++;
        } else {
            shape = false;
            differences.add("step names: " + show(stepsA) + " vs " + show(stepsB));
        }
        compared.add("gradientCollectives");
        Set<String> collA = collectives(a, options);
        Set<String> collB = collectives(b, options);
        if (collA.equals(collB)) {
            same++;
        } else {
            differences.add("gradient collectives (type, bytes) in the steps: " + show(collA) + " vs " + show(collB));
        }
        notCompared.addAll(List.of("collectiveGroups", "kernelNames"));
        return new Comparability((double) same / compared.size(), shape, differences, compared, notCompared);
    }

    /** "WHO are not comparable (score 0.25): world size: 8 vs 2; …". */
    public String warning(String who) {
        return who + " are not comparable (score " + String.format(java.util.Locale.ROOT, "%.2f", score) + "): "
                + String.join("; ", differences);
    }

    private static Set<Integer> worldSizes(Run run) {
        Set<Integer> out = new TreeSet<>();
        run.ranks().stream().map(RankReport::worldSize).filter(Objects::nonNull).forEach(out::add);
        return out;
    }

    /** The device models the run's ranks name (unknown ones left out): one per run unless the job mixed devices. */
    private static Set<String> deviceModels(Run run) {
        Set<String> out = new TreeSet<>();
        run.ranks().stream().map(RankReport::deviceModel).filter(Objects::nonNull).forEach(out::add);
        return out;
    }

    private static Set<Integer> rankIds(Run run) {
        Set<Integer> out = new TreeSet<>();
        run.ranks().forEach(r -> out.add(r.rank()));
        return out;
    }

    /** "ProfilerStep#12" and "ProfilerStep#40" are the same step of another iteration: numbers out. */
    private static Set<String> stepNames(Run run, AnalysisOptions options) {
        Set<String> out = new TreeSet<>();
        for (StepReport s : run.aggregatedSteps(options)) {
            out.add(s.name().replaceAll("\\d+", "N"));
        }
        return out;
    }

    private static Set<String> collectives(Run run, AnalysisOptions options) {
        Set<String> out = new TreeSet<>();
        for (StepReport s : run.aggregatedSteps(options)) {
            for (BucketReport g : s.gradBuckets()) {
                out.add(g.type() + " " + (g.bytes() == null ? "?" : g.bytes() + " B"));
            }
        }
        return out;
    }

    private static String show(Set<?> values) {
        if (values.isEmpty()) {
            return "none";
        }
        List<String> shown = values.stream().limit(6).map(String::valueOf).toList();
        return String.join(", ", shown) + (values.size() > 6 ? ", … (" + values.size() + ")" : "");
    }
}
