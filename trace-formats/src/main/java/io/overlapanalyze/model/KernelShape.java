package io.overlapanalyze.model;

/**
 * A kernel's launch shape: grid and block dimensions as the profiler recorded them (Kineto's
 * {@code args.grid}/{@code args.block}, Nsight's gridX…blockZ columns). One kernel name often runs
 * several shapes (a GEMM over different matrix sizes), whose durations are not comparable.
 */
public record KernelShape(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ)
        implements java.io.Serializable {
    /** Whether every dimension is a usable count (the readers keep no shape otherwise). */
    public static boolean valid(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ) {
        return gridX >= 0 && gridY >= 0 && gridZ >= 0 && blockX >= 0 && blockY >= 0 && blockZ >= 0;
    }

    /** {@code grid=[132,1,1] block=[128,1,1]}: how every renderer and the report name a shape. */
    public String text() {
        return "grid=[" + gridX + "," + gridY + "," + gridZ + "] block=[" + blockX + "," + blockY + "," + blockZ + "]";
    }

    @Override
    public String toString() {
        return text();
    }
}
