package io.overlapanalyze.findings;

import io.overlapanalyze.report.CrossRankReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.FindingKind;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The job's findings (metrics.md §13) from its ranks' findings: one per kind, naming every rank it
 * applies to, ranked by its effect on the job's step, which is the slowest rank's (the others wait
 * for it at every collective). A kind's saving is the slowest rank's when that rank has it, else the
 * largest among the ranks that have it; its share is of the slowest rank's median step. Every
 * cross-rank ERROR comes first, once.
 */
public final class JobFindings {
    private JobFindings() {
    }

    /** One rank's findings, as the job ranks them. */
    public record RankFindingsOf(int rank, List<Finding> findings) {
    }

    /** Each report's rank and findings, in the order given. */
    public static List<RankFindingsOf> of(List<RankReport> reports) {
        return reports.stream().map(r -> new RankFindingsOf(r.rank(), r.findings())).toList();
    }

    public static List<Finding> of(List<RankFindingsOf> ranks, VerdictContext context) {
        List<Finding> out = new ArrayList<>();
        CrossRankReport cross = context.crossRank();
        if (cross != null) {
            for (Mismatch m : cross.mismatches()) {
                if (m.severity() == Mismatch.Severity.ERROR) {
                    out.add(RankFindings.mismatch(m));
                }
            }
        }
        if (ranks.size() == 1) {
            // A single rank is the job: its findings, mismatches already listed above.
            ranks.get(0).findings().stream().filter(f -> !isMismatch(f)).forEach(out::add);
            return out;
        }
        Integer slowest = slowest(context);
        Long period = slowest == null ? null : context.ranks().get(slowest).periodNs();
        Map<String, List<Map.Entry<Integer, Finding>>> byKind = new LinkedHashMap<>();
        for (RankFindingsOf r : ranks) {
            for (Finding f : r.findings()) {
                if (!isMismatch(f)) {
                    byKind.computeIfAbsent(f.kind(), k -> new ArrayList<>()).add(Map.entry(r.rank(), f));
                }
            }
        }
        List<Finding> ranked = new ArrayList<>();
        for (Map.Entry<String, List<Map.Entry<Integer, Finding>>> e : byKind.entrySet()) {
            List<Map.Entry<Integer, Finding>> found = e.getValue();
            Map.Entry<Integer, Finding> shown = found.stream().filter(x -> x.getKey().equals(slowest)).findFirst()
                    .orElse(found.stream().max(Comparator.comparingLong((Map.Entry<Integer, Finding> x) -> x.getValue()
                            .savingNs()).thenComparing(Map.Entry::getKey, Comparator.reverseOrder())).orElseThrow());
            TreeSet<Integer> where = new TreeSet<>();
            found.forEach(x -> where.addAll(x.getValue().ranks()));
            Finding f = shown.getValue();
            long saving = period == null ? f.savingNs() : Math.min(f.savingNs(), period);
            String prefix = "rank " + shown.getKey();
            String evidence = (f.evidence().startsWith(prefix + " ") ? "" : prefix + ": ") + f.evidence()
                    + (where.size() > 1 ? " (also on " + (where.size() - 1) + " more "
                    + (where.size() == 2 ? "rank" : "ranks") + ")" : "");
            ranked.add(new Finding(f.kind(), saving, period == null || period == 0 ? f.shareOfStep()
                    : (double) saving / period, List.copyOf(where), evidence, f.action()));
        }
        ranked.sort(Comparator.comparingLong(Finding::savingNs).reversed()
                .thenComparing(x -> FindingKind.valueOf(x.kind()).ordinal()));
        out.addAll(ranked);
        return out;
    }

    /** The rank with the longest median step period (lowest id among equals); {@code null} without periods. */
    static Integer slowest(VerdictContext context) {
        Integer best = null;
        long longest = Long.MIN_VALUE;
        for (Map.Entry<Integer, RankMedians> e : context.ranks().entrySet()) {
            Long p = e.getValue().periodNs();
            if (p != null && p > longest) {
                longest = p;
                best = e.getKey();
            }
        }
        return best;
    }

    private static boolean isMismatch(Finding f) {
        return FindingKind.COLLECTIVE_MISMATCH.name().equals(f.kind());
    }
}
