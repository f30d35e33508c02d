package io.overlapanalyze.whatif;

import java.util.List;
import java.util.Locale;

/**
 * The recommendation in words: why this cap, and what the neighbouring caps lose. Smaller caps
 * pay the per-message latency α more often; larger caps make the first bucket ready later and the
 * last bucket's own transfer (the tail) longer.
 */
final class Recommendation {
    private Recommendation() {
    }

    static String explain(WhatIfReport.Option best, WhatIfReport.Option asMeasured, List<WhatIfReport.Option> caps,
                          String dominant, CostModel model, WhatIfReport.Measured measured) {
        StringBuilder sb = new StringBuilder();
        sb.append(best.label()).append(": predicted step ").append(ms(best.stepTimeNs())).append(", tail ")
                .append(ms(best.tailNs())).append(" (measured buckets on the ideal timeline: step ")
                .append(ms(asMeasured.stepTimeNs())).append(", tail ").append(ms(asMeasured.tailNs())).append("). ");
        switch (dominant) {
            case "LATE_FIRST_BUCKET" -> sb.append(String.format(Locale.ROOT,
                    "The measured buckets (median %s) are too big: the first is ready only at %s and the last "
                            + "one's own transfer makes the tail; %d smaller buckets start reducing at %s. ",
                    mb(measured.medianBucketBytes()), ms(asMeasured.firstBucketReadyNs()), best.buckets(),
                    ms(best.firstBucketReadyNs())));
            case "PER_MESSAGE_LATENCY" -> sb.append(String.format(Locale.ROOT,
                    "The measured buckets (median %s) are too small: %d messages each pay alpha = %s; %d larger "
                            + "buckets save %s of latency. ",
                    mb(measured.medianBucketBytes()), asMeasured.buckets(), us(model.alphaNs()), best.buckets(),
                    ms(Math.round((asMeasured.buckets() - best.buckets()) * model.alphaNs()))));
            default -> sb.append("The measured bucketing is already within 1% of the best cap. ");
        }
        int i = caps.indexOf(best);
        if (i > 0) {
            WhatIfReport.Option s = caps.get(i - 1);
            if (s.stepTimeNs() > best.stepTimeNs()) {
                sb.append(String.format(Locale.ROOT, "Smaller (%s): +%s step, %d messages instead of %d "
                                + "(per-message latency). ", s.label(), ms(s.stepTimeNs() - best.stepTimeNs()),
                        s.buckets(), best.buckets()));
            }
        }
        if (i >= 0 && i + 1 < caps.size()) {
            WhatIfReport.Option l = caps.get(i + 1);
            if (l.stepTimeNs() > best.stepTimeNs() || l.tailNs() > best.tailNs()) {
                sb.append(String.format(Locale.ROOT, "Larger (%s): +%s step, first bucket ready at %s instead of "
                                + "%s, tail %s (late first bucket). ", l.label(),
                        ms(l.stepTimeNs() - best.stepTimeNs()), ms(l.firstBucketReadyNs()),
                        ms(best.firstBucketReadyNs()), ms(l.tailNs())));
            }
        }
        if (best.exposedCommNs() * 10 > best.stepTimeNs()) {
            sb.append(String.format(Locale.ROOT, "Even so %s of communication stays exposed: the compute cannot "
                    + "hide it; only fewer bytes or more bandwidth help (try --bandwidth-scale).",
                    ms(best.exposedCommNs())));
        }
        return sb.toString().trim();
    }

    /** Milliseconds, rounded half up at the µs like every printed time ({@code HumanTime}). */
    static String ms(long ns) {
        return io.overlapanalyze.report.HumanTime.ms(ns) + " ms";
    }

    static String us(double ns) {
        return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
    }

    static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
