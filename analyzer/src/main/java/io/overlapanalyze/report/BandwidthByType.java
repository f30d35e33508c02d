package io.overlapanalyze.report;

/**
 * Bandwidth of one collective type over the timed matched collectives with known sizes
 * (metrics.md §9; nccl-tests conventions, decimal GB/s = bytes per ns).
 *
 * @param type              collective type
 * @param count             collectives
 * @param withSize          of those, with known bytes (the rest have no bandwidth)
 * @param bytes             Σ bytes of those with size
 * @param transferNs        Σ transfer time (min duration over ranks) of those with size
 * @param algBwGBps         bytes / transferNs, {@code null} when none
 * @param busBwGBps         algBw × bus factor of the type and group size
 * @param medianBusBwGBps   median of per-collective bus bandwidth
 */
public record BandwidthByType(String type, int count, int withSize, long bytes, long transferNs, Double algBwGBps,
                              Double busBwGBps, Double medianBusBwGBps) implements java.io.Serializable {
}
