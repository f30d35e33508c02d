package io.overlapanalyze.formats;

/**
 * Bounds on what one input file may decompress to, so that a gzip bomb (or a wrong file) is
 * refused quickly instead of keeping the tool busy for minutes. Memory is not the concern (the
 * readers stream); time and honesty are.
 *
 * @param maxDecompressedBytes the most bytes one file may decompress to
 * @param maxRatio             the most decompressed bytes per compressed byte; checked once a
 *                             file has produced {@link #RATIO_GRACE_BYTES}, so small, highly
 *                             repetitive files are never refused. Real profiler JSON compresses
 *                             10–60:1; gzip's own limit is about 1032:1.
 */
public record InputLimits(long maxDecompressedBytes, int maxRatio) {
    /** Decompressed bytes before the ratio is enforced. */
    public static final long RATIO_GRACE_BYTES = 64L << 20;

    /** 1 TiB and 200:1. */
    public static final InputLimits DEFAULT = new InputLimits(1L << 40, 200);

    private static volatile InputLimits current = DEFAULT;

    public InputLimits {
        if (maxDecompressedBytes <= 0 || maxRatio <= 0) {
            throw new IllegalArgumentException("input limits must be positive");
        }
    }

    /** The limits in force for this process (the CLI sets them from its options). */
    public static InputLimits current() {
        return current;
    }

    public static void setCurrent(InputLimits limits) {
        current = limits;
    }
}
