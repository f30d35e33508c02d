package io.overlapanalyze.whatif;

import io.overlapanalyze.model.CollectiveType;

/**
 * Communication time of one collective type (and process-group size) as {@code α + bytes/β},
 * fitted from a trace's own collectives, with the quality of that fit.
 *
 * <p>α and β are doubles: they come out of a least-squares fit. Every time derived from them is
 * rounded half up to a whole ns once ({@link #timeNs(long)}), so replays are deterministic.
 *
 * @param type                 collective type the samples had
 * @param groupSize            process-group size of the samples, {@code -1} when unknown
 * @param alphaNs              per-message latency α, ns (intercept)
 * @param betaBytesPerNs       bandwidth β, bytes per ns (= decimal GB/s); 1/slope
 * @param r2                   coefficient of determination; {@code null} when undefined (all sizes equal)
 * @param rmsResidualNs        root mean square of the residuals, ns
 * @param maxAbsResidualNs     largest absolute residual, ns
 * @param rmsRelativeResidual  root mean square of residual / measured time (0.05 = 5 %)
 * @param samples              number of collectives fitted
 * @param minBytes             smallest fitted size
 * @param maxBytes             largest fitted size
 * @param quality              verdict, see {@link Quality}
 * @param note                 why the verdict, one line
 */
public record CostModel(CollectiveType type, int groupSize, double alphaNs, double betaBytesPerNs, Double r2,
                        double rmsResidualNs, double maxAbsResidualNs, double rmsRelativeResidual, int samples,
                        long minBytes, long maxBytes, Quality quality, String note) {

    /** How far the fit can be trusted. */
    public enum Quality {
        /** R² ≥ {@link CostModelFitter#GOOD_R2} and relative RMS residual ≤ {@link CostModelFitter#GOOD_RMS_RELATIVE}. */
        GOOD,
        /** Noisy or mixed data: a line does not describe these collectives well. */
        POOR,
        /** One message size only (or one sample): α and β cannot be separated; α is taken as 0. */
        DEGENERATE
    }

    /** Predicted time of a collective of {@code bytes}, whole ns (half up), never below 1 ns. */
    public long timeNs(long bytes) {
        return Math.max(1L, Math.round(alphaNs + bytes / betaBytesPerNs));
    }

    /** The same model on a different interconnect: β × {@code bandwidthScale}, α × {@code latencyScale}. */
    public CostModel scaled(double bandwidthScale, double latencyScale) {
        if (bandwidthScale == 1 && latencyScale == 1) {
            return this;
        }
        return new CostModel(type, groupSize, alphaNs * latencyScale, betaBytesPerNs * bandwidthScale, r2,
                rmsResidualNs, maxAbsResidualNs, rmsRelativeResidual, samples, minBytes, maxBytes, quality, note);
    }

    /**
     * True when {@code bytes} lies more than {@code factor} times outside the fitted sizes:
     * predictions there are extrapolations.
     */
    public boolean extrapolates(long bytes, double factor) {
        return bytes < minBytes / factor || bytes > maxBytes * factor;
    }
}
