package io.overlapanalyze.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Interns {@link KernelShape}s to small ints from their six dimensions without allocating on a
 * hit: a kernel-heavy trace has millions of launches and a few dozen shapes. Open addressing over
 * the ids (+1, 0 = empty), kept at most half full. Not thread-safe: one per rank model.
 */
public final class ShapePool {
    private final List<KernelShape> values = new ArrayList<>();
    private int[] table = new int[64];

    /** The id of the shape with these dimensions, added when new. */
    public int intern(int gx, int gy, int gz, int bx, int by, int bz) {
        int mask = table.length - 1;
        for (int slot = hash(gx, gy, gz, bx, by, bz) & mask; ; slot = (slot + 1) & mask) {
            int id = table[slot] - 1;
            if (id < 0) {
                id = values.size();
                values.add(new KernelShape(gx, gy, gz, bx, by, bz));
                table[slot] = id + 1;
                if (2 * values.size() > table.length) {
                    rehash();
                }
                return id;
            }
            KernelShape s = values.get(id);
            if (s.gridX() == gx && s.gridY() == gy && s.gridZ() == gz && s.blockX() == bx && s.blockY() == by
                    && s.blockZ() == bz) {
                return id;
            }
        }
    }

    public int intern(KernelShape s) {
        return intern(s.gridX(), s.gridY(), s.gridZ(), s.blockX(), s.blockY(), s.blockZ());
    }

    public KernelShape get(int id) {
        return values.get(id);
    }

    public int size() {
        return values.size();
    }

    private void rehash() {
        int[] bigger = new int[table.length * 2];
        int mask = bigger.length - 1;
        for (int id = 0; id < values.size(); id++) {
            KernelShape s = values.get(id);
            int slot = hash(s.gridX(), s.gridY(), s.gridZ(), s.blockX(), s.blockY(), s.blockZ()) & mask;
            while (bigger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = id + 1;
        }
        table = bigger;
    }

    private static int hash(int gx, int gy, int gz, int bx, int by, int bz) {
        int h = gx;
        h = 31 * h + gy;
        h = 31 * h + gz;
        h = 31 * h + bx;
        h = 31 * h + by;
        h = 31 * h + bz;
        return h ^ (h >>> 16);
    }
}
