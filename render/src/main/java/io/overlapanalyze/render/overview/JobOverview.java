package io.overlapanalyze.render.overview;

import io.overlapanalyze.analysis.ExactMedian;
import io.overlapanalyze.report.AnalysisReport;
import io.overlapanalyze.report.Finding;
import io.overlapanalyze.report.FindingKind;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepReport;
import io.overlapanalyze.report.TailKind;
import io.overlapanalyze.report.Totals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The job at a glance, every human format's first section: what was read, the step time across
 * ranks, the cross-rank errors, and one row per rank, worst first. Built from the report alone, so
 * every number in it is one the JSON carries.
 *
 * <p>Worst first means: ranks a cross-rank ERROR names, then stragglers (the job's findings say so),
 * then the longest median step period, then the most idle and exposed communication; ties by rank.
 * The <em>worst rank</em> (the one detailed by default) is the first of that order leaving the
 * error ranks aside, which are detailed anyway.
 *
 * @param ranksRead   ranks with a report
 * @param worldSize   the largest world size any rank states, or {@code null}
 * @param formats     input formats, lower case, sorted
 * @param minSteps    fewest counted steps on a rank
 * @param maxSteps    most counted steps on a rank
 * @param stepTime    the ranks' median step periods across ranks; {@code null} when no rank has one
 * @param errors      cross-rank mismatches of severity ERROR
 * @param rows        one per rank, worst first
 * @param worstRank   see above; {@code null} without ranks
 * @param uncountedSteps steps the totals leave out (partial ones, without {@code --include-partial}):
 *                    a capture without step ranges is one such step, "all"
 */
public record JobOverview(int ranksRead, Integer worldSize, List<String> formats, int minSteps, int maxSteps,
                          Spread stepTime, List<Mismatch> errors, List<RankRow> rows, Integer worstRank,
                          int uncountedSteps) {

    /**
     * A distribution across ranks of one per-rank value.
     *
     * @param medianNs the median, by the totals' rule ({@link ExactMedian})
     * @param p90Ns    the 90th percentile, nearest rank: the value of a real rank
     * @param maxNs    the largest
     * @param maxRank  the rank with the largest (the lowest such rank)
     * @param minNs    the smallest
     * @param ranks    how many ranks have the value
     */
    public record Spread(long medianNs, long p90Ns, long maxNs, int maxRank, long minNs, int ranks) {
    }

    /** The overview of {@code report}, which holds every rank's full report. */
    public static JobOverview of(AnalysisReport report) {
        return of(report, JobRanks.inReport());
    }

    /** The overview of {@code report}, each rank read through {@code ranks} (its summary). */
    public static JobOverview of(AnalysisReport report, JobRanks ranks) {
        Set<Integer> stragglers = new HashSet<>();
        for (Finding f : report.findings()) {
            if (FindingKind.STRAGGLER.name().equals(f.kind())) {
                stragglers.addAll(f.ranks());
            }
        }
        List<Mismatch> errors = report.crossRank() == null ? List.of()
                : report.crossRank().mismatches().stream().filter(m -> m.severity() == Mismatch.Severity.ERROR).toList();
        Set<Integer> errorRanks = new HashSet<>();
        errors.forEach(m -> errorRanks.addAll(m.culprits()));

        List<RankRow> rows = new ArrayList<>();
        Set<String> formats = new TreeSet<>();
        Integer world = null;
        int minSteps = Integer.MAX_VALUE;
        int maxSteps = 0;
        int uncounted = 0;
        for (RankReport held : report.ranks()) {
            RankSummary r = ranks.summary(held);
            RankRow row = flagged(r.row(), stragglers.contains(r.rank()), errorRanks.contains(r.rank()));
            rows.add(row);
            formats.add(r.format().toLowerCase(Locale.ROOT));
            if (r.worldSize() != null && (world == null || r.worldSize() > world)) {
                world = r.worldSize();
            }
            minSteps = Math.min(minSteps, row.steps());
            maxSteps = Math.max(maxSteps, row.steps());
            uncounted += r.steps() - row.steps();
        }
        if (report.crossRank() != null && report.crossRank().worldSize() != null
                && (world == null || report.crossRank().worldSize() > world)) {
            world = report.crossRank().worldSize();
        }
        rows.sort(WORST_FIRST);
        Integer worst = rows.stream().filter(r -> !r.error()).findFirst()
                .or(() -> rows.stream().findFirst()).map(RankRow::rank).orElse(null);
        return new JobOverview(rows.size(), world, List.copyOf(formats), rows.isEmpty() ? 0 : minSteps, maxSteps,
                spread(rows), errors, List.copyOf(rows), worst, Math.max(0, uncounted));
    }

    private static RankRow flagged(RankRow r, boolean straggler, boolean error) {
        return new RankRow(r.rank(), r.steps(), r.stepTimeNs(), r.periodNs(), r.idleShare(), r.exposedCommNs(),
                r.tailNs(), r.tailCause(), r.waitingShare(), straggler, error);
    }

    /**
     * At most {@code max} of a rank's steps, in step order: all when they fit, else the longest
     * (by step time; the earlier step on a tie), so a capped table still shows the steps that matter.
     */
    public static List<StepReport> longestSteps(List<StepReport> steps, int max) {
        if (steps.size() <= max) {
            return steps;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> steps.get(i).stepTimeNs()).reversed()
                .thenComparing(Comparator.naturalOrder()));
        return order.subList(0, max).stream().sorted().map(steps::get).toList();
    }

    /**
     * The rank records {@code report} holds of the ranks {@code detail} chooses, in its order (a rank id
     * two inputs share gives both); a layout reads each one's full report through its {@link JobRanks}.
     */
    public List<io.overlapanalyze.report.RankReport> detailed(AnalysisReport report, DetailSelection detail) {
        List<io.overlapanalyze.report.RankReport> out = new ArrayList<>();
        for (int r : new java.util.LinkedHashSet<>(detail.choose(ranksWorstFirst(), worstRank, errorRanks()))) {
            for (io.overlapanalyze.report.RankReport rank : report.ranks()) {
                if (rank.rank() == r) {
                    out.add(rank);
                }
            }
        }
        return out;
    }

    /** Rank ids in the rows' order (worst first). */
    public List<Integer> ranksWorstFirst() {
        return rows.stream().map(RankRow::rank).toList();
    }

    /** The ranks a cross-rank error names. */
    public Set<Integer> errorRanks() {
        Set<Integer> s = new TreeSet<>();
        rows.stream().filter(RankRow::error).forEach(r -> s.add(r.rank()));
        return s;
    }

    private static final Comparator<RankRow> WORST_FIRST = Comparator
            .comparing(RankRow::error).reversed()
            .thenComparing(Comparator.comparing(RankRow::straggler).reversed())
            .thenComparing(RankRow::periodNs, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(JobOverview::lostNs, Comparator.reverseOrder())
            .thenComparingInt(RankRow::rank);

    /** Idle plus exposed communication per step, as far as known: what the step did not compute. */
    private static long lostNs(RankRow r) {
        long idle = r.idleShare() == null || r.periodNs() == null ? 0 : Math.round(r.idleShare() * r.periodNs());
        return idle + (r.exposedCommNs() == null ? 0 : r.exposedCommNs());
    }

    static RankRow row(RankReport r, boolean straggler, boolean error) {
        Totals t = r.totals();
        if (t == null || t.steps() == 0) {
            return new RankRow(r.rank(), 0, null, null, null, null, null, null, null, straggler, error);
        }
        Totals.Medians md = t.medians();
        boolean commKnown = commKnown(r);
        Double idleShare = t.stepPeriodNs() == null || t.stepPeriodNs() <= 0 ? null
                : (double) t.idleNs() / t.stepPeriodNs();
        List<StepReport> counted = counted(r, t);
        return new RankRow(r.rank(), t.steps(), md.stepTimeNs(), md.stepPeriodNs(), idleShare,
                commKnown ? md.exposedCommNs() : null, md.tailNs(), tailCause(counted),
                commKnown ? waitingShare(counted) : null, straggler, error);
    }

    /** False when the trace cannot tell communication from compute: its comm figures are unknown. */
    public static boolean commKnown(RankReport rank) {
        return rank.notAvailable() == null || rank.notAvailable().communication() == null;
    }

    /** The steps the totals count: complete ones, or all when the totals include partial steps. */
    public static List<StepReport> counted(RankReport r, Totals t) {
        long complete = r.steps().stream().filter(s -> !s.partial()).count();
        boolean withPartial = t.steps() > complete;
        return r.steps().stream().filter(s -> !s.partial() || withPartial).toList();
    }

    private static String tailCause(List<StepReport> steps) {
        Map<TailKind, Integer> kinds = new EnumMap<>(TailKind.class);
        for (StepReport s : steps) {
            if (s.tailNs() != null && s.tailNs() > 0) {
                kinds.merge(s.attribution().kind(), 1, Integer::sum);
            }
        }
        // Most frequent; on a tie the first in the enum's order, so the choice never depends on maps.
        return kinds.entrySet().stream().max(Map.Entry.<TailKind, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                .map(e -> e.getKey().name()).orElse(null);
    }

    private static Double waitingShare(List<StepReport> steps) {
        long wait = 0;
        long all = 0;
        for (StepReport s : steps) {
            if (s.commSplit() != null && s.commSplit().known()) {
                wait += s.commSplit().waitNs();
                all += s.commSplit().waitNs() + s.commSplit().transferNs();
            }
        }
        return all == 0 ? null : (double) wait / all;
    }

    private static Spread spread(List<RankRow> rows) {
        List<RankRow> timed = rows.stream().filter(r -> r.periodNs() != null)
                .sorted(Comparator.comparing(RankRow::periodNs).thenComparingInt(RankRow::rank)).toList();
        if (timed.isEmpty()) {
            return null;
        }
        int n = timed.size();
        long[] periods = timed.stream().mapToLong(RankRow::periodNs).toArray();
        long median = ExactMedian.of(periods, n);
        long p90 = timed.get((int) Math.ceil(0.9 * n) - 1).periodNs();
        long max = timed.get(n - 1).periodNs();
        int maxRank = timed.stream().filter(r -> r.periodNs() == max).mapToInt(RankRow::rank).min().orElseThrow();
        return new Spread(median, p90, max, maxRank, timed.get(0).periodNs(), n);
    }
}
