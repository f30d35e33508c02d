package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.report.InputProblem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Picks the ranks that form one consistent job, and names the inputs left out:
 * <ul>
 *   <li>the job's world size is the most common one the traces declare (ties: the first input's);
 *       a trace declaring another is from another job ({@code OTHER_JOB});</li>
 *   <li>a rank id at or above the world size is {@code RANK_OUT_OF_RANGE};</li>
 *   <li>the same rank twice: the first input (in the order given) is kept, later ones are
 *       {@code DUPLICATE_RANK};</li>
 *   <li>ranks below the world size that no input holds are "missing" (a note, not an error:
 *       profiling a few ranks of a large job is normal).</li>
 * </ul>
 * Every input keeps its own single-rank section; this only decides who is compared.
 */
final class JobAssembler {
    private JobAssembler() {
    }

    record Assembly(List<RankInput> ranks, Integer worldSize, List<Integer> missing, List<InputProblem> problems,
                    List<String> notes) {
    }

    static Assembly assemble(List<RankInput> inputs) {
        List<InputProblem> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<Integer, Integer> worldCounts = new LinkedHashMap<>();
        for (RankInput in : inputs) {
            if (in.trace().worldSize() > 0) {
                worldCounts.merge(in.trace().worldSize(), 1, Integer::sum);
            }
        }
        Integer world = null;
        for (Map.Entry<Integer, Integer> e : worldCounts.entrySet()) {
            if (world == null || e.getValue() > worldCounts.get(world)) {
                world = e.getKey();
            }
        }
        Map<Integer, RankInput> byRank = new HashMap<>();
        for (RankInput in : inputs) {
            int w = in.trace().worldSize();
            int r = in.rank();
            String file = in.trace().source();
            if (world != null && w > 0 && w != world) {
                problems.add(new InputProblem(file, r, InputProblem.OTHER_JOB, file + ": rank " + r + " of a job of "
                        + w + " ranks, but the other inputs are from a job of " + world + " ranks; left out"));
                continue;
            }
            if (world != null && r >= world) {
                problems.add(new InputProblem(file, r, InputProblem.RANK_OUT_OF_RANGE, file + ": rank " + r
                        + " (from " + source(in) + ") is not below the world size " + world + "; left out"));
                continue;
            }
            RankInput kept = byRank.get(r);
            if (kept != null) {
                String hint = in.trace().rankSource() == RankSource.DEFAULT
                        ? " (neither the trace nor the file name says which rank it is: name files rank-N or use --rank-regex)"
                        : "";
                problems.add(new InputProblem(file, r, InputProblem.DUPLICATE_RANK, file + ": rank " + r
                        + " is also in " + kept.trace().source() + ", which is used; left out" + hint));
                continue;
            }
            byRank.put(r, in);
        }
        List<RankInput> ranks = new ArrayList<>(byRank.values());
        ranks.sort(Comparator.comparingInt(RankInput::rank));
        List<Integer> missing = new ArrayList<>();
        TreeSet<Integer> present = new TreeSet<>(byRank.keySet());
        int upTo = world != null ? world : (present.isEmpty() ? 0 : present.last() + 1);
        for (int r = 0; r < upTo; r++) {
            if (!present.contains(r)) {
                missing.add(r);
            }
        }
        if (!missing.isEmpty()) {
            notes.add(present.size() + " of " + (world != null ? world + " ranks" : "at least " + upTo + " ranks")
                    + " usable; no trace for rank" + (missing.size() == 1 ? " " : "s ") + ranges(missing)
                    + ": cross-rank results cover the usable ranks only");
        }
        for (RankInput in : ranks) {
            if (in.trace().truncated()) {
                notes.add("rank " + in.rank() + " (" + in.trace().source() + ") is truncated: collectives it lacks "
                        + "at the end may be the cut, not a hang");
            }
        }
        return new Assembly(ranks, world, missing, problems, notes);
    }

    private static String source(RankInput in) {
        return in.trace().rankSource().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** "2-127" or "3, 5, 9-11". */
    static String ranges(List<Integer> sorted) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            parts.add(i == j ? Integer.toString(sorted.get(i)) : sorted.get(i) + "-" + sorted.get(j));
            i = j + 1;
        }
        return String.join(", ", parts);
    }
}
