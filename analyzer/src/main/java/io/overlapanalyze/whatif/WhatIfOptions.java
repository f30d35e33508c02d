package io.overlapanalyze.whatif;

import java.util.List;

/**
 * What to predict.
 *
 * @param bucketCapsBytes     caps to try (DDP's rule, see {@link Rebucketing})
 * @param bandwidthScale      β multiplier for the scaled-interconnect rows (1: none)
 * @param latencyScale        α multiplier for the scaled-interconnect rows (1: none)
 * @param extrapolationFactor a bucket size more than this factor outside the fitted sizes is
 *                            flagged as an extrapolation
 */
public record WhatIfOptions(List<Long> bucketCapsBytes, double bandwidthScale, double latencyScale,
                            double extrapolationFactor) {
    /** DDP's {@code bucket_cap_mb} values worth trying, in MiB. */
    public static final List<Long> DEFAULT_CAPS_MIB = List.of(1L, 5L, 10L, 25L, 50L, 100L);

    public WhatIfOptions {
        bucketCapsBytes = List.copyOf(bucketCapsBytes);
        if (!(bandwidthScale > 0) || !(latencyScale >= 0) || Double.isInfinite(bandwidthScale)
                || Double.isInfinite(latencyScale)) {
            throw new IllegalArgumentException("bandwidth scale must be > 0 and latency scale >= 0");
        }
    }

    public static WhatIfOptions defaults() {
        return new WhatIfOptions(DEFAULT_CAPS_MIB.stream().map(m -> m * 1024 * 1024).toList(), 1, 1, 2);
    }

    public boolean scaled() {
        return bandwidthScale != 1 || latencyScale != 1;
    }
}
