package io.overlapanalyze.formats.input;

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
 *                             Serialisable, so that another JVM can read under the same limits.
 *                             A run's limits travel in its {@link ReadOptions}.
 */
public record InputLimits(long maxDecompressedBytes, int maxRatio) implements java.io.Serializable {
    /** Decompressed bytes before the ratio is enforced. */
    public static final long RATIO_GRACE_BYTES = 64L << 20;

    /** 1 TiB and 200:1. */
    public static final InputLimits DEFAULT = new InputLimits(1L << 40, 200);

    /**
     * What the JSON parsers accept inside one file. Jackson's defaults (nesting 1,000, strings of
     * 20 M characters) are below what a real file may hold (an {@code args} value nested deeper, a
     * name of a generated kernel), and a value beyond them ends the parse like damage, so the rest
     * of the file was dropped as if cut. Nesting is cheap (a context per level); a string costs two
     * bytes per character of heap, so it stays bounded.
     */
    public static final com.fasterxml.jackson.core.StreamReadConstraints PARSER_CONSTRAINTS =
            com.fasterxml.jackson.core.StreamReadConstraints.builder()
                    .maxNestingDepth(1 << 20)
                    .maxStringLength(256 << 20)
                    .build();

    public InputLimits {
        if (maxDecompressedBytes <= 0 || maxRatio <= 0) {
            throw new IllegalArgumentException("input limits must be positive");
        }
    }
}
