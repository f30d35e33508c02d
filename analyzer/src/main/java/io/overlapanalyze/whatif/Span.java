package io.overlapanalyze.whatif;

/** A half-open interval {@code [startNs, endNs)} on a replayed step's clock (0 = the step's device start). */
public record Span(long startNs, long endNs) {
    public Span {
        if (endNs < startNs) {
            throw new IllegalArgumentException("end " + endNs + " before start " + startNs);
        }
    }

    public long lengthNs() {
        return endNs - startNs;
    }

    public Span shift(long deltaNs) {
        return new Span(startNs + deltaNs, endNs + deltaNs);
    }
}
