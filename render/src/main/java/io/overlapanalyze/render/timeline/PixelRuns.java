package io.overlapanalyze.render.timeline;

import io.overlapanalyze.analysis.IntervalSet;

import java.util.Arrays;

/**
 * An interval union scaled to a drawing: runs as {@code [x0, x1)} in pixels, with runs closer
 * than one pixel merged. However many kernels a step has, a lane of {@code w} pixels yields at
 * most about {@code w / 2} runs, which keeps a report of a big job small; a sparse lane keeps its
 * exact positions.
 */
public final class PixelRuns {
    private final double[] x0;
    private final double[] x1;
    private final int size;

    private PixelRuns(double[] x0, double[] x1, int size) {
        this.x0 = x0;
        this.x1 = x1;
        this.size = size;
    }

    /**
     * Scales {@code set} from the window {@code [t0, t0 + spanNs)} to {@code [0, width)} pixels.
     * Runs are clipped to the window; gaps narrower than {@code minGapPx} are closed.
     */
    public static PixelRuns of(IntervalSet set, long t0, long spanNs, double width, double minGapPx) {
        double[] a = new double[Math.min(set.size(), 16)];
        double[] b = new double[a.length];
        int n = 0;
        double scale = width / spanNs;
        for (int r = 0; r < set.size(); r++) {
            double s = Math.max(0, (set.start(r) - t0) * scale);
            double e = Math.min(width, (set.end(r) - t0) * scale);
            if (e <= s) {
                continue; // outside the window
            }
            if (n > 0 && s - b[n - 1] < minGapPx) {
                b[n - 1] = Math.max(b[n - 1], e);
                continue;
            }
            if (n == a.length) {
                a = Arrays.copyOf(a, Math.max(16, n * 2));
                b = Arrays.copyOf(b, a.length);
            }
            a[n] = s;
            b[n] = e;
            n++;
        }
        return new PixelRuns(a, b, n);
    }

    public int size() {
        return size;
    }

    public double start(int i) {
        return x0[i];
    }

    public double end(int i) {
        return x1[i];
    }

    /**
     * Fraction of each of {@code cells} equal cells of the window that the set covers, in [0, 1]
     * (the terminal timeline's resolution). Linear in runs + cells.
     */
    public static double[] coverage(IntervalSet set, long t0, long spanNs, int cells) {
        double[] cover = new double[cells];
        double cellNs = (double) spanNs / cells;
        for (int r = 0; r < set.size(); r++) {
            double s = Math.max(0, set.start(r) - t0) / cellNs;
            double e = Math.min(spanNs, set.end(r) - t0) / cellNs;
            if (e <= s) {
                continue;
            }
            int first = (int) Math.floor(s);
            int last = Math.min(cells - 1, (int) Math.ceil(e) - 1);
            for (int c = first; c <= last; c++) {
                cover[c] += Math.min(e, c + 1) - Math.max(s, c);
            }
        }
        for (int c = 0; c < cells; c++) {
            cover[c] = Math.min(1.0, cover[c]);
        }
        return cover;
    }
}
