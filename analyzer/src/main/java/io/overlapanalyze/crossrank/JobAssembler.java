package io.overlapanalyze.crossrank;

import io.overlapanalyze.model.RankSource;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.InputProblem;
import io.overlapanalyze.report.RankRange;
import io.overlapanalyze.report.RankRanges;

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

    /**
     * @param missing       ranks below the world size no usable input holds, as ranges
     * @param missingListed the same one by one, or {@code null} when more than
     *                      {@link CrossRankReport#MAX_LISTED_MISSING}
     */
    record Assembly(List<RankInput> ranks, Integer worldSize, List<RankRange> missing, List<Integer> missingListed,
                    List<InputProblem> problems, List<String> notes) {
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
            if (r >= RankTrace.MAX_WORLD_SIZE) {
                problems.add(new InputProblem(file, r, InputProblem.RANK_OUT_OF_RANGE, file + ": rank " + r
                        + " (from " + source(in) + ") is no plausible rank id (a job has fewer than "
                        + RankTrace.MAX_WORLD_SIZE + " ranks); left out"));
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
        TreeSet<Integer> present = new TreeSet<>(byRank.keySet());
        int upTo = world != null ? world : (present.isEmpty() ? 0 : present.last() + 1);
        // The gaps between the ranks present, as ranges: bounded by the inputs, not by the world size.
        List<RankRange> missing = new ArrayList<>();
        int next = 0;
        for (int r : present) {
            if (r < 0) {
                continue; // kept as the trace says (RankNaming warned); not a place in 0 .. world
            }
            if (r >= upTo) {
                break;
            }
            if (r > next) {
                missing.add(new RankRange(next, r - 1));
            }
            next = r + 1;
        }
        if (next < upTo) {
            missing.add(new RankRange(next, upTo - 1));
        }
        long missingCount = RankRanges.count(missing);
        List<Integer> listed = null;
        if (missingCount <= CrossRankReport.MAX_LISTED_MISSING) {
            listed = new ArrayList<>();
            for (RankRange g : missing) {
                for (int r = g.from(); r <= g.to(); r++) {
                    listed.add(r);
                }
            }
        }
        if (!missing.isEmpty()) {
            notes.add(present.size() + " of " + (world != null ? world + " ranks" : "at least " + upTo + " ranks")
                    + " usable; no trace for rank" + (missingCount == 1 ? " " : "s ") + RankRanges.text(missing, "-", false)
                    + ": cross-rank results cover the usable ranks only");
        }
        for (RankInput in : ranks) {
            if (in.trace().truncated()) {
                notes.add("rank " + in.rank() + " (" + in.trace().source() + ") is truncated: collectives it lacks "
                        + "at the end may be the cut, not a hang");
            }
        }
        return new Assembly(ranks, world, missing, listed, problems, notes);
    }

    private static String source(RankInput in) {
        return in.trace().rankSource().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
