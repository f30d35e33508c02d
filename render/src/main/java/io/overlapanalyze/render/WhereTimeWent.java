package io.overlapanalyze.render;

import io.overlapanalyze.render.overview.JobOverview;
import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.HostActivity;
import io.overlapanalyze.report.IdleBreakdown;
import io.overlapanalyze.report.RankReport;
import io.overlapanalyze.report.StepBreakdown;
import io.overlapanalyze.report.Totals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * "Where the time went" (metrics.md §11) in words, for every renderer: the shares of the rank's
 * step periods (over the steps its totals add) by what the device did, and what the host was
 * doing while the device waited for it.
 *
 * <p>Shares are of the summed periods, so they add up to 100 % (up to rounding of each to one
 * decimal). Host activities are shown per step on average (their sum over the steps divided by
 * the number of steps), largest first: with one step, exactly that step's figures.
 */
public final class WhereTimeWent {
    /** How many host activities the one-line summary names. */
    static final int NAMED_ACTIVITIES = 3;

    private WhereTimeWent() {
    }

    /** One part of the breakdown: its label, its sum over the steps, its median. */
    public record Part(String label, long totalNs, Long medianNs) {
    }

    /**
     * The parts in the contract's order (compute, fused, communication alone, copies alone, idle,
     * then idle's host-bound and launched shares); empty when the totals have no breakdown.
     */
    public static List<Part> parts(RankReport rank) {
        Totals t = rank.totals();
        if (t == null || t.breakdown() == null) {
            return List.of();
        }
        StepBreakdown b = t.breakdown();
        StepBreakdown m = t.medians() == null ? null : t.medians().breakdown();
        List<Part> out = new ArrayList<>();
        out.add(new Part(JobOverview.commKnown(rank) ? "compute" : "compute (communication not told apart)",
                b.computeNs(), m == null ? null : m.computeNs()));
        out.add(new Part("fused", b.fusedNs(), m == null ? null : m.fusedNs()));
        out.add(new Part("comm alone", b.commNs(), m == null ? null : m.commNs()));
        out.add(new Part("copies", b.copyNs(), m == null ? null : m.copyNs()));
        out.add(new Part("idle", b.idleNs(), m == null ? null : m.idleNs()));
        IdleBreakdown idle = t.idle();
        if (idle != null) {
            out.add(new Part("idle: host-bound", idle.hostNs(), t.medians() == null ? null : t.medians().idleHostNs()));
            out.add(new Part("idle: launched, not started", idle.launchedNs(),
                    t.medians() == null ? null : t.medians().idleLaunchedNs()));
            if (idle.unknownNs() > 0) {
                out.add(new Part("idle: launch unknown", idle.unknownNs(), null));
            }
        }
        return out;
    }

    /** {@code part / whole} as a percentage with one decimal. */
    public static String share(long part, long whole) {
        return whole <= 0 ? "-" : Units.pct((double) part / (double) whole);
    }

    /**
     * The text report's first line of a rank, e.g. {@code where the time went (median step
     * 222.055 ms): compute 17.3%, comm alone 4.6%, copies 0.3%, idle 77.7% (host-bound 73.0%,
     * ...)}; {@code null} when the rank's totals have no breakdown.
     * Parts that are zero are left out, except compute and idle. A second line, indented, names
     * the host ranges the host-bound idle went to, when any.
     */
    public static String line(RankReport rank, UnaryOperator<String> escape) {
        Totals t = rank.totals();
        if (t == null || t.breakdown() == null || t.stepPeriodNs() == null || t.stepPeriodNs() <= 0) {
            return null;
        }
        long whole = t.breakdown().totalNs();
        StringBuilder sb = new StringBuilder("where the time went (");
        Long median = t.medians() == null ? null : t.medians().stepPeriodNs();
        sb.append(t.steps() == 1 ? "step " : "median step ").append(Units.msUnit(median)).append("): ");
        List<String> shown = new ArrayList<>();
        for (Part p : parts(rank)) {
            if (p.label().startsWith("idle")) {
                continue;
            }
            if (p.totalNs() > 0 || p.label().startsWith("compute")) {
                shown.add(p.label() + " " + share(p.totalNs(), whole));
            }
        }
        StepBreakdown b = t.breakdown();
        sb.append(String.join(", ", shown)).append(", idle ").append(share(b.idleNs(), whole));
        IdleBreakdown idle = t.idle();
        if (idle == null || b.idleNs() == 0) {
            return sb.toString();
        }
        List<String> why = new ArrayList<>();
        if (idle.hostNs() > 0) {
            why.add("host-bound " + share(idle.hostNs(), whole));
        }
        if (idle.launchedNs() > 0) {
            why.add("launched, not started " + share(idle.launchedNs(), whole));
        }
        if (idle.unknownNs() > 0) {
            why.add("launch unknown " + share(idle.unknownNs(), whole));
        }
        sb.append(" (").append(String.join(", ", why)).append(')');
        List<String> named = new ArrayList<>();
        for (HostActivity a : idle.hostActivity()) {
            if (named.size() == NAMED_ACTIVITIES) {
                break;
            }
            named.add(escape.apply(a.name()) + " " + Units.msUnit(Math.floorDiv(a.ns(), t.steps())));
        }
        if (!named.isEmpty()) {
            sb.append("\n  the host meanwhile").append(t.steps() > 1 ? " (per step)" : "").append(": ")
                    .append(String.join(", ", named));
        }
        return sb.toString();
    }
}
