package io.overlapanalyze.render;

import io.overlapanalyze.render.units.Units;
import io.overlapanalyze.report.CrossCheckStep;
import io.overlapanalyze.report.CrossCheckValue;

import java.util.ArrayList;
import java.util.List;

/**
 * The cross-check rows ({@code --cross-check}): per step and quantity, ours, the profiler's, and
 * the difference, in ms with µs resolution; the difference also in ns, since agreement is
 * expected to within rounding.
 */
final class CrossCheckView {
    static final String[] HEADER = {"step", "quantity", "ours ms", "theirs ms", "diff ns"};

    private CrossCheckView() {
    }

    static List<String[]> rows(List<CrossCheckStep> steps) {
        List<String[]> rows = new ArrayList<>();
        for (CrossCheckStep s : steps) {
            // On a step with fused kernels our side is counted by the profiler's rule (MC² kernel
            // as computing, its communication op as communication): the labels say so.
            boolean fused = s.oursCounted() != null;
            add(rows, s.step(), fused ? "computing / compute + fused kernels" : "computing / computeBusy", s.computing());
            add(rows, s.step(), fused ? "communication / comm + fused comm ops" : "communication / commBusy",
                    s.communication());
            add(rows, s.step(), fused ? "comm not overlapped / the same, by that rule" : "comm not overlapped / exposedComm",
                    s.exposedCommunication());
            add(rows, s.step(), "free / idle", s.free());
        }
        return rows;
    }

    private static void add(List<String[]> rows, String step, String what, CrossCheckValue v) {
        rows.add(new String[] {step, what, Units.ms(v.oursNs()), Units.ms(v.theirsNs()),
                v.diffNs() == null ? "-" : String.format(java.util.Locale.ROOT, "%+d", v.diffNs())});
    }
}
