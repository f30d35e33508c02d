package io.overlapanalyze.crossrank;

import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.StepTail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per step, the rank with the longest tail: every rank's optimizer waits for the slowest
 * reduction, so the job's tail is the worst rank's. Steps are matched by name; steps without a
 * defined tail on a rank are skipped there.
 */
final class WorstTails {
    private WorstTails() {
    }

    static List<StepTail> of(List<RankReport> reports) {
        Map<String, List<Object[]>> byStep = new LinkedHashMap<>();
        for (RankReport r : reports) {
            for (StepReport s : r.steps()) {
                if (s.tailNs() != null) {
                    byStep.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(new Object[] {r.rank(), s});
                }
            }
        }
        List<StepTail> out = new ArrayList<>();
        for (Map.Entry<String, List<Object[]>> e : byStep.entrySet()) {
            int worstRank = -1;
            StepReport worst = null;
            long min = Long.MAX_VALUE;
            for (Object[] x : e.getValue()) {
                StepReport s = (StepReport) x[1];
                if (worst == null || s.tailNs() > worst.tailNs()) {
                    worst = s;
                    worstRank = (Integer) x[0];
                }
                min = Math.min(min, s.tailNs());
            }
            out.add(new StepTail(e.getKey(), worstRank, worst.tailNs(), worst.attribution().kind().name(), min,
                    e.getValue().size()));
        }
        return out;
    }
}
