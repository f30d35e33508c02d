package io.overlapanalyze.render;

import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.overview.RankRow;
import io.overlapanalyze.render.overview.ReportLayout;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.Mismatch;
import io.overlapanalyze.report.RankRanges;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The job at a glance as text or markdown (both from the same lines and rows, so they cannot
 * disagree): what was read, the step period across ranks, the cross-rank errors, and the rank
 * table, worst first, capped. Public for the HTML page, which shows the same lines and rows.
 */
public final class JobSection {
    /** Cross-rank errors named in the overview; the rest are counted (all are in "across ranks"). */
    private static final int ERRORS_SHOWN = 5;

    public static final String[] HEADER = {"rank", "steps", "step ms", "period ms", "idle", "exposed comm ms", "tail ms",
            "cause", "waiting", "flags"};

    private JobSection() {
    }

    /** The overview's opening lines (inputs, step period, errors), names through {@code escape}. */
    public static List<String> lines(JobOverview o, UnaryOperator<String> escape) {
        List<String> lines = new ArrayList<>();
        lines.add("job: " + inputs(o));
        JobOverview.Spread s = o.stepTime();
        lines.add("step period across ranks (each rank's median): " + (s == null
                ? "not available: no rank has a step with device work"
                : "median " + Units.msUnit(s.medianNs()) + ", p90 " + Units.msUnit(s.p90Ns()) + ", max "
                        + Units.msUnit(s.maxNs()) + " (rank " + s.maxRank() + "), min " + Units.msUnit(s.minNs())));
        int shown = 0;
        for (Mismatch m : o.errors()) {
            if (shown++ == ERRORS_SHOWN) {
                lines.add("… " + (o.errors().size() - ERRORS_SHOWN) + " more cross-rank errors (under \"across ranks\")");
                break;
            }
            lines.add("ERROR " + escape.apply(shortMismatch(m)));
        }
        return lines;
    }

    private static String inputs(JobOverview o) {
        StringBuilder sb = new StringBuilder();
        sb.append(o.ranksRead()).append(o.ranksRead() == 1 ? " rank" : " ranks").append(" read");
        if (o.worldSize() == null) {
            sb.append(" (the traces do not state the world size)");
        } else {
            sb.append(" of a world of ").append(o.worldSize());
            if (o.worldSize() > o.ranksRead()) {
                sb.append(" (").append((long) o.worldSize() - o.ranksRead()).append(" not in the input)");
            }
        }
        sb.append(", ").append(o.minSteps() == o.maxSteps() ? Integer.toString(o.maxSteps())
                : o.minSteps() + " to " + o.maxSteps()).append(o.maxSteps() == 1 ? " step" : " steps")
                .append(" per rank, ").append(String.join(", ", o.formats()));
        return sb.toString();
    }

    /**
     * One line for a mismatch of any size of job: which ranks differ and how, not every rank's
     * values (those are in the cross-rank section).
     */
    public static String shortMismatch(Mismatch m) {
        StringBuilder sb = new StringBuilder();
        sb.append(m.kind()).append(" in group ").append(m.group()).append(" at collective ").append(m.index());
        if (m.step() != null) {
            sb.append(" (").append(m.step()).append(')');
        }
        sb.append(": ");
        Set<Integer> culprits = Set.copyOf(m.culprits());
        String who = (m.culprits().size() == 1 ? "rank " : "ranks ") + RankRanges.text(m.culprits());
        if (m.kind() == Mismatch.MismatchKind.MISSING) {
            sb.append(who).append(" never issued it: the others would wait forever");
            return sb.toString();
        }
        Map<String, Integer> others = new LinkedHashMap<>();
        Map<String, Integer> theirs = new LinkedHashMap<>();
        for (Mismatch.RankValues v : m.ranks()) {
            (culprits.contains(v.rank()) ? theirs : others).merge(value(m, v), 1, Integer::sum);
        }
        sb.append(who).append(" issued ").append(String.join(" or ", theirs.keySet()));
        String majority = others.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(null);
        if (majority != null) {
            int n = m.ranks().size() - m.culprits().size();
            sb.append(" where the other ").append(n).append(n == 1 ? " rank issued " : " ranks issued ").append(majority);
        }
        sb.append(": the job would hang or reduce the wrong data");
        return sb.toString();
    }

    private static String value(Mismatch m, Mismatch.RankValues v) {
        if (!v.present()) {
            return "nothing";
        }
        return switch (m.kind()) {
            case SIZE -> v.type() + " of " + (v.inElements() == null ? "?" : v.inElements()) + " elements";
            case DTYPE -> v.type() + " " + (v.dtype() == null ? "?" : v.dtype());
            default -> v.type();
        };
    }

    /** The rank table's rows (after the header), capped at the layout's rank rows. */
    public static List<String[]> rows(JobOverview o, ReportLayout layout) {
        List<String[]> rows = new ArrayList<>();
        for (RankRow r : o.rows().subList(0, Math.min(o.rows().size(), layout.rankRows()))) {
            List<String> flags = new ArrayList<>();
            if (r.error()) {
                flags.add("ERROR");
            }
            if (r.straggler()) {
                flags.add("straggler");
            }
            rows.add(new String[] {Integer.toString(r.rank()), Integer.toString(r.steps()), Units.ms(r.stepTimeNs()),
                    Units.ms(r.periodNs()), Units.pct(r.idleShare()), Units.ms(r.exposedCommNs()), Units.ms(r.tailNs()),
                    r.tailCause() == null ? "-" : r.tailCause(), Units.pct(r.waitingShare()),
                    String.join(", ", flags)});
        }
        return rows;
    }

    /**
     * Instead of a table of dashes: "no rank has a step (…): ranks 9, 14 are named by a cross-rank
     * error", when no rank has a counted step (Flight Recorder dumps, captures without device work);
     * {@code null} when some rank has one.
     */
    public static String noSteps(JobOverview o) {
        if (o.rows().stream().anyMatch(r -> r.steps() > 0)) {
            return null;
        }
        java.util.Set<Integer> errors = o.errorRanks();
        return "ranks: no rank has a complete step with device work, so there is no per-rank timing to rank them by"
                + (o.uncountedSteps() > 0 ? " (their " + o.uncountedSteps() + " partial steps count with "
                + "--include-partial)" : "")
                + (errors.isEmpty() ? "" : "; " + (errors.size() == 1 ? "rank " : "ranks ") + RankRanges.text(errors)
                + (errors.size() == 1 ? " is" : " are") + " named by a cross-rank error");
    }

    /** "ranks, worst first (…)", the table's title. */
    public static String title(JobOverview o, ReportLayout layout) {
        int shown = Math.min(o.rows().size(), layout.rankRows());
        return "ranks, worst first (cross-rank errors, stragglers, then the longest step period)"
                + (shown < o.rows().size() ? ": " + shown + " of " + o.rows().size() : "");
    }

    /** The line under a capped table, or {@code null} when every rank is listed. */
    public static String more(JobOverview o, ReportLayout layout) {
        int left = o.rows().size() - Math.min(o.rows().size(), layout.rankRows());
        return left == 0 ? null : "… " + left + " more ranks (--rank-rows all lists them; JSON has every rank)";
    }

    /** "detail: rank 40 (the worst rank), rank 3 (a cross-rank error)", naming why each is shown. */
    public static String detailLine(JobOverview o, ReportLayout layout, List<Integer> detailed) {
        if (layout.fullTables()) {
            return null;
        }
        if (detailed.isEmpty()) {
            return "no rank in detail (--detail worst, all or a rank list shows ranks step by step)";
        }
        Set<Integer> errors = o.errorRanks();
        List<String> parts = new ArrayList<>();
        for (int r : detailed) {
            String why = Integer.valueOf(r).equals(o.worstRank()) ? " (the worst rank)"
                    : errors.contains(r) ? " (named by a cross-rank error)" : "";
            parts.add("rank " + r + why);
        }
        return "in detail below: " + String.join(", ", parts) + "; --detail all|worst|none|RANKS chooses";
    }
}
