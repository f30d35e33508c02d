package io.overlapanalyze.analysis;

import io.overlapanalyze.model.Collective;
import io.overlapanalyze.model.DeviceIntervals;
import io.overlapanalyze.model.DeviceKind;
import io.overlapanalyze.model.RankTrace;
import io.overlapanalyze.model.Time;

/**
 * Device work that starts before the host launched it: the host and device clocks of the trace
 * disagree (issue 29 item 8). Work cannot start before its launch call (the shared real exports'
 * smallest launch-to-start gap is +5.3 µs), so when many intervals do, every figure that puts a
 * host time beside a device time (which step an interval without a launch belongs to, the
 * host-bound idle, the launch delays) is wrong, and a step whose work fell outside the host's step
 * ranges shows 0.000. Format-blind: it looks at launch times and collective enqueue times, not at
 * how a reader found them.
 *
 * <ul>
 *   <li>A kernel (compute, communication, fused) with a known launch (not launched before the
 *       capture) is early when it starts
 *       more than {@link #TOLERANCE_NS} before its launch; a collective with a known enqueue is
 *       early when its first device interval starts more than that before the enqueue (the
 *       enqueue is the only host time a collective without launch links has).</li>
 *   <li>The clocks are skewed when at least {@link #SHARE_PERCENT} % of what was checked is early:
 *       a few damaged rows do not condemn a trace, a skew moves nearly everything.</li>
 * </ul>
 * One pass over the intervals and the collectives.
 */
public final class ClockSkewCheck {
    /**
     * How far before its launch a start may lie and still be read as rounding, not skew: Kineto
     * writes µs with three decimals, some tools round to the µs, and the launch call's recorded
     * start can follow its entry by a few µs.
     */
    public static final long TOLERANCE_NS = 10_000;
    /** The share of checked work that must be early for the clocks to count as skewed. */
    public static final int SHARE_PERCENT = 10;

    /**
     * @param checked   intervals with a launch and collectives with an enqueue that were compared
     * @param early     how many of them start more than the tolerance before their host time
     * @param maxLeadNs the most any of them starts before its host time (0 when none is early)
     */
    public record Result(long checked, long early, long maxLeadNs) {
        /** True when the share of early work says the clocks disagree. */
        public boolean skewed() {
            return early > 0 && early * 100 >= checked * SHARE_PERCENT;
        }

        /** "N of M kernels and collectives start before their host launch, by up to X ms". */
        public String describe() {
            return early + " of " + checked + " kernels and collectives start before their host launch"
                    + " (by up to " + io.overlapanalyze.report.HumanTime.ms(maxLeadNs) + " ms)";
        }
    }

    private ClockSkewCheck() {
    }

    /** The whole rank: every interval with a launch, every collective with an enqueue. */
    public static Result of(RankTrace trace) {
        DeviceIntervals d = trace.device();
        long checked = 0;
        long early = 0;
        long max = 0;
        for (int i = 0; i < d.size(); i++) {
            long lead = lead(d, i);
            if (lead != NOT_CHECKED) {
                checked++;
                if (lead > TOLERANCE_NS) {
                    early++;
                    max = Math.max(max, lead);
                }
            }
        }
        for (Collective c : trace.collectives()) {
            if (!Time.isKnown(c.enqueueNs()) || c.deviceIntervals().length == 0) {
                continue;
            }
            long first = Long.MAX_VALUE;
            for (int i : c.deviceIntervals()) {
                first = Math.min(first, d.start(i));
            }
            checked++;
            long lead = minus(c.enqueueNs(), first);
            if (lead > TOLERANCE_NS) {
                early++;
                max = Math.max(max, lead);
            }
        }
        return new Result(checked, early, max);
    }

    /** The intervals of one step that have a launch. */
    public static Result of(DeviceIntervals d, int[] intervals) {
        long checked = 0;
        long early = 0;
        long max = 0;
        for (int i : intervals) {
            long lead = lead(d, i);
            if (lead != NOT_CHECKED) {
                checked++;
                if (lead > TOLERANCE_NS) {
                    early++;
                    max = Math.max(max, lead);
                }
            }
        }
        return new Result(checked, early, max);
    }

    private static final long NOT_CHECKED = Long.MIN_VALUE;

    /**
     * How far kernel {@code i} starts before its launch (negative: after); NOT_CHECKED without a
     * launch, and for what is not a kernel: CUPTI stamps sync rows with their host call's time (a
     * sync row may lie before its launch with agreeing clocks), and copies are left out with them.
     */
    private static long lead(DeviceIntervals d, int i) {
        long launch = d.launchNs(i);
        DeviceKind kind = d.kind(i);
        if (!Time.isKnown(launch) || d.preCapture(i)
                || (kind != DeviceKind.COMPUTE && kind != DeviceKind.COMM && kind != DeviceKind.FUSED)) {
            return NOT_CHECKED;
        }
        return minus(launch, d.start(i));
    }

    /** {@code a - b}, saturated: times from a damaged file may lie further apart than a long holds. */
    private static long minus(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? (a > b ? Long.MAX_VALUE : -Long.MAX_VALUE) : r;
    }
}
