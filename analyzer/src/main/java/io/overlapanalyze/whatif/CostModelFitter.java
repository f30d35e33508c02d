package io.overlapanalyze.whatif;

import io.overlapanalyze.model.CollectiveType;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fits {@code time = α + bytes/β} by ordinary least squares (commons-math3
 * {@link SimpleRegression}) per collective type and process-group size: an all-reduce among 8
 * ranks and one among 64 are different lines, and mixing them would give a line that fits
 * neither (the fit reports that as POOR).
 *
 * <p>Verdict: GOOD when R² ≥ {@value #GOOD_R2} and the RMS of the relative residuals is at most
 * {@value #GOOD_RMS_RELATIVE}; otherwise POOR. With a single distinct size the slope is
 * undetermined: DEGENERATE, α = 0 and β = mean bytes / mean time (pure bandwidth), which makes
 * every other size an extrapolation that ignores per-message latency.
 */
public final class CostModelFitter {
    public static final double GOOD_R2 = 0.98;
    public static final double GOOD_RMS_RELATIVE = 0.05;

    private CostModelFitter() {
    }

    /** One model per (type, group size), largest sample count first. Samples without bytes are skipped. */
    public static List<CostModel> fitAll(List<CommSample> samples) {
        Map<String, List<CommSample>> byKey = new LinkedHashMap<>();
        for (CommSample s : samples) {
            if (s.bytes() > 0 && s.durationNs() > 0) {
                byKey.computeIfAbsent(s.type() + "/" + s.groupSize(), k -> new ArrayList<>()).add(s);
            }
        }
        List<CostModel> out = new ArrayList<>();
        for (List<CommSample> group : byKey.values()) {
            out.add(fit(group));
        }
        out.sort(Comparator.comparingInt(CostModel::samples).reversed());
        return out;
    }

    /** Fits one line through the samples (all assumed to be one type and group size). */
    public static CostModel fit(List<CommSample> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no collectives with known bytes and duration to fit");
        }
        CollectiveType type = samples.get(0).type();
        int groupSize = samples.get(0).groupSize();
        long minBytes = Long.MAX_VALUE;
        long maxBytes = Long.MIN_VALUE;
        SimpleRegression reg = new SimpleRegression(true);
        double sumBytes = 0;
        double sumTime = 0;
        for (CommSample s : samples) {
            reg.addData(s.bytes(), s.durationNs());
            minBytes = Math.min(minBytes, s.bytes());
            maxBytes = Math.max(maxBytes, s.bytes());
            sumBytes += s.bytes();
            sumTime += s.durationNs();
        }
        double alpha;
        double beta;
        Double r2;
        CostModel.Quality quality;
        String note;
        double slope = reg.getSlope();
        if (minBytes == maxBytes || samples.size() < 2) {
            alpha = 0;
            beta = sumBytes / sumTime;
            r2 = null;
            quality = CostModel.Quality.DEGENERATE;
            note = String.format(Locale.ROOT, "all %d collectives have the same size (%d bytes): latency and "
                    + "bandwidth cannot be separated; assuming alpha = 0, so other sizes ignore per-message latency",
                    samples.size(), minBytes);
        } else if (!(slope > 0)) {
            // Time does not grow with size: no bandwidth term can be fitted. Keep a usable model
            // (mean rate) but say the fit is meaningless.
            alpha = 0;
            beta = sumBytes / sumTime;
            r2 = finiteOrNull(reg.getRSquare());
            quality = CostModel.Quality.POOR;
            note = "time does not grow with message size (slope " + String.format(Locale.ROOT, "%.3g", slope)
                    + " ns/byte): no alpha-beta line fits; using the mean rate with alpha = 0";
        } else {
            alpha = reg.getIntercept();
            beta = 1.0 / slope;
            r2 = finiteOrNull(reg.getRSquare());
            quality = null;
            note = null;
        }
        double sq = 0;
        double relSq = 0;
        double maxAbs = 0;
        for (CommSample s : samples) {
            double predicted = alpha + s.bytes() / beta;
            double residual = s.durationNs() - predicted;
            sq += residual * residual;
            relSq += (residual / s.durationNs()) * (residual / s.durationNs());
            maxAbs = Math.max(maxAbs, Math.abs(residual));
        }
        double rms = Math.sqrt(sq / samples.size());
        double rmsRel = Math.sqrt(relSq / samples.size());
        if (quality == null) {
            boolean good = r2 != null && r2 >= GOOD_R2 && rmsRel <= GOOD_RMS_RELATIVE;
            quality = good ? CostModel.Quality.GOOD : CostModel.Quality.POOR;
            note = good
                    ? String.format(Locale.ROOT, "%d collectives from %d to %d bytes fit a line", samples.size(),
                    minBytes, maxBytes)
                    : String.format(Locale.ROOT, "poor fit (R^2 %.3f, RMS relative residual %.1f%%): the "
                            + "collectives are noisy or mix different interconnects/groups; predictions are rough",
                    r2 == null ? Double.NaN : r2, rmsRel * 100);
            if (alpha < 0) {
                note += String.format(Locale.ROOT, "; fitted alpha is negative (%.0f ns): latency is not resolved "
                        + "by these sizes", alpha);
            }
        }
        return new CostModel(type, groupSize, alpha, beta, r2, rms, maxAbs, rmsRel, samples.size(), minBytes,
                maxBytes, quality, note);
    }

    private static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
